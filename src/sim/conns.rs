//! The channels the simulated NameServers hold open: by channel id, and each broker's to each
//! NameServer.
//!
//! Sorted `Vec`s, not `BTreeMap`s: a NameServer holds a channel per broker, a broker one per
//! NameServer, so a binary search over a few dozen entries is as quick, and each B-tree key and
//! value type adds its own copy of the B-tree's code to the workshop's bundle (BENCHMARKS.md).

use crate::namesrv::ChannelId;

/// An open connection as the NameServer holds it (a broker's registration channel).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Conn {
    pub ns: usize,
    pub broker: usize,
    pub last_traffic: u64,
}

/// The open channels by id. Ids only grow, so a new channel goes at the end.
#[derive(Clone, Debug, Default)]
pub(crate) struct Conns(Vec<(ChannelId, Conn)>);

impl Conns {
    fn find(&self, ch: ChannelId) -> Result<usize, usize> {
        self.0.binary_search_by_key(&ch, |(id, _)| *id)
    }

    pub fn get(&self, ch: ChannelId) -> Option<&Conn> {
        self.find(ch).ok().map(|i| &self.0[i].1)
    }

    pub fn get_mut(&mut self, ch: ChannelId) -> Option<&mut Conn> {
        self.find(ch).ok().map(|i| &mut self.0[i].1)
    }

    pub fn contains(&self, ch: ChannelId) -> bool {
        self.find(ch).is_ok()
    }

    pub fn insert(&mut self, ch: ChannelId, conn: Conn) {
        match self.find(ch) {
            Ok(i) => self.0[i].1 = conn,
            Err(i) => self.0.insert(i, (ch, conn)),
        }
    }

    pub fn remove(&mut self, ch: ChannelId) -> Option<Conn> {
        self.find(ch).ok().map(|i| self.0.remove(i).1)
    }

    /// In id order.
    pub fn iter(&self) -> impl Iterator<Item = (ChannelId, &Conn)> {
        self.0.iter().map(|(id, c)| (*id, c))
    }
}

/// A broker's channel to each NameServer (by the NameServer's index), in index order.
#[derive(Clone, Debug, Default)]
pub(crate) struct ChannelTo(Vec<(usize, ChannelId)>);

impl ChannelTo {
    pub fn get(&self, ns: usize) -> Option<ChannelId> {
        self.0.iter().find(|(n, _)| *n == ns).map(|(_, ch)| *ch)
    }

    pub fn insert(&mut self, ns: usize, ch: ChannelId) {
        match self.0.binary_search_by_key(&ns, |(n, _)| *n) {
            Ok(i) => self.0[i].1 = ch,
            Err(i) => self.0.insert(i, (ns, ch)),
        }
    }

    /// Every channel, in NameServer order, leaving none.
    pub fn take(&mut self) -> Vec<(usize, ChannelId)> {
        std::mem::take(&mut self.0)
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn(ns: usize) -> Conn {
        Conn {
            ns,
            broker: 0,
            last_traffic: 0,
        }
    }

    #[test]
    fn channels_by_id() {
        let mut c = Conns::default();
        c.insert(ChannelId(3), conn(0));
        c.insert(ChannelId(1), conn(1));
        c.insert(ChannelId(2), conn(2));
        assert_eq!(c.iter().map(|(id, _)| id.0).collect::<Vec<_>>(), [1, 2, 3]);
        if let Some(x) = c.get_mut(ChannelId(2)) {
            x.last_traffic = 9;
        }
        assert_eq!(c.get(ChannelId(2)).map(|x| x.last_traffic), Some(9));
        assert_eq!(c.remove(ChannelId(1)).map(|x| x.ns), Some(1));
        assert!(!c.contains(ChannelId(1)) && c.contains(ChannelId(3)));
        assert_eq!(c.remove(ChannelId(1)), None);
        let mut to = ChannelTo::default();
        to.insert(2, ChannelId(7));
        to.insert(0, ChannelId(5));
        to.insert(2, ChannelId(8));
        assert_eq!(to.get(2), Some(ChannelId(8)));
        assert_eq!(to.take(), [(0, ChannelId(5)), (2, ChannelId(8))]);
        assert_eq!(to.get(0), None);
    }
}
