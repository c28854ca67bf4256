//! WIPE_WRITE_PERM_OF_BROKER and ADD_WRITE_PERM_OF_BROKER (spec §2.5). In memory only: the broker's
//! next registration overwrites the change only when the registration rules say so.

use super::event::{Event, PermChange};
use super::request::non_empty;
use super::{RouteError, RouteManager};
use crate::model::perm::{PERM_READ, PERM_WRITE};
use crate::model::BrokerName;

impl RouteManager {
    /// `perm &= !WRITE` on every topic of `broker_name`. Returns `wipeTopicCount`.
    pub fn wipe_write_perm_of_broker(&mut self, broker_name: &str) -> Result<usize, RouteError> {
        self.change_write_perm(broker_name, PermChange::Wiped)
    }

    /// `perm = READ | WRITE` (overwriting inherit and priority bits) on every topic of
    /// `broker_name`. Returns `addTopicCount`.
    pub fn add_write_perm_of_broker(&mut self, broker_name: &str) -> Result<usize, RouteError> {
        self.change_write_perm(broker_name, PermChange::Added)
    }

    fn change_write_perm(
        &mut self,
        broker_name: &str,
        change: PermChange,
    ) -> Result<usize, RouteError> {
        non_empty("brokerName", broker_name)?;
        // Every topic in the table's order, as RocketMQ's loop visits them.
        let name = BrokerName::from(broker_name);
        let topics = self.topic_queue_table.java_topics_of(&name);
        for topic in &topics {
            if let Some(qd) = self
                .topic_queue_table
                .queue_mut(topic.as_str(), broker_name)
            {
                qd.perm = match change {
                    PermChange::Wiped => qd.perm & !PERM_WRITE,
                    PermChange::Added => PERM_READ | PERM_WRITE,
                };
            }
        }
        let count = topics.len();
        if count > 0 {
            self.queue_writes += 1;
            self.events.push_back(Event::PermChanged {
                broker_name: BrokerName::from(broker_name),
                change,
                topics,
            });
        }
        Ok(count)
    }
}
