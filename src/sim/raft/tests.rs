//! The election's tests: one leader, a lost leader replaced, no majority, and Raft's election
//! safety over many seeds of outages.
use super::*;

/// From `*now` to `until`: checks every member due, in index order, at each time one is due.
fn run_until(
    g: &mut Group,
    up: &[bool],
    now: &mut u64,
    until: u64,
    rng: &mut SeededRng,
) -> Vec<Elected> {
    let mut elected = Vec::new();
    while *now <= until {
        let t = *now;
        for i in 0..g.members.len() {
            if up[i] && g.next_check(i) <= t {
                elected.extend(g.check(i, t, up, rng).elected);
            }
        }
        *now = (0..g.members.len())
            .filter(|&i| up[i])
            .map(|i| g.next_check(i).max(t + 1))
            .min()
            .unwrap_or(u64::MAX)
            .min(until + 1);
    }
    elected
}

fn leaders(g: &Group) -> Vec<usize> {
    (0..g.members.len())
        .filter(|&i| g.members[i].role == Role::Leader)
        .collect()
}

/// Spec: DLedgerLeaderElector: three candidates of term 0 elect one leader within a second or
/// two; every other member follows it in its term.
#[test]
fn three_members_elect_one_leader() {
    let mut rng = SeededRng::new(7);
    let mut g = Group::new(3);
    let up = [true; 3];
    let elected = run_until(&mut g, &up, &mut 0, 10_000, &mut rng);
    assert_eq!(elected.len(), 1, "{elected:?}");
    let e = elected[0];
    assert!(e.votes >= 2);
    assert_eq!(leaders(&g), [e.leader]);
    for (k, m) in g.members.iter().enumerate() {
        assert_eq!(m.term, e.term);
        if k != e.leader {
            assert_eq!((m.role, m.leader), (Role::Follower, Some(e.leader)));
        }
    }
}

/// Spec: maintainAsFollower (3 × 2 s without a heartbeat) and handleVote (the longer log wins):
/// the leader going down, the two others elect one of them in a larger term; the old leader
/// back is behind on its log, gets no votes, and follows.
#[test]
fn a_lost_leader_is_replaced_and_follows_when_back() {
    let mut rng = SeededRng::new(3);
    let mut g = Group::new(3);
    let mut up = [true; 3];
    let now = &mut 0;
    let first = run_until(&mut g, &up, now, 5_000, &mut rng)[0];
    g.append(first.leader, 10);
    run_until(&mut g, &up, now, 8_000, &mut rng);
    up[first.leader] = false;
    let next = run_until(&mut g, &up, now, 30_000, &mut rng);
    assert_eq!(next.len(), 1, "{next:?}");
    assert_ne!(next[0].leader, first.leader);
    assert!(next[0].term > first.term);
    g.append(next[0].leader, 20);
    run_until(&mut g, &up, now, 32_000, &mut rng);
    g.restart(first.leader);
    up[first.leader] = true;
    let after = run_until(&mut g, &up, now, 60_000, &mut rng);
    assert!(after.is_empty(), "{after:?}");
    let old = &g.members[first.leader];
    assert_eq!(
        (old.role, old.leader),
        (Role::Follower, Some(next[0].leader))
    );
    assert_eq!(old.ledger_end_index, 20, "the follower's log caught up");
}

/// Spec: isQuorum: one member of three cannot elect itself; a leader that loses its majority
/// stands down after 3 heartbeats.
#[test]
fn no_majority_no_leader() {
    let mut rng = SeededRng::new(1);
    let mut g = Group::new(3);
    let mut up = [true; 3];
    let now = &mut 0;
    let first = run_until(&mut g, &up, now, 5_000, &mut rng)[0];
    for (k, u) in up.iter_mut().enumerate() {
        *u = k == first.leader;
    }
    let none = run_until(&mut g, &up, now, 60_000, &mut rng);
    assert!(none.is_empty(), "{none:?}");
    assert_eq!(g.members[first.leader].role, Role::Candidate);
}

/// Raft's election safety over many seeds and outages: never two leaders of one term, and
/// with a majority up a leader within 10 s of the last outage.
#[test]
fn one_leader_per_term_whatever_goes_down() {
    for seed in 0..200 {
        let mut rng = SeededRng::new(seed);
        let n = 3 + (seed % 3) as usize;
        let mut g = Group::new(n);
        let mut up = vec![true; n];
        let now = &mut 0;
        let mut leaders_of: Vec<(u64, usize)> = Vec::new();
        for round in 0..6u64 {
            let until = *now + 7_000;
            for e in run_until(&mut g, &up, now, until, &mut rng) {
                assert!(
                    !leaders_of
                        .iter()
                        .any(|&(t, l)| t == e.term && l != e.leader),
                    "seed {seed}: two leaders in term {}",
                    e.term
                );
                leaders_of.push((e.term, e.leader));
            }
            // Take one member down or bring one back, keeping a majority up.
            let k = rng.next_below(n as u64) as usize;
            let ups = up.iter().filter(|u| **u).count();
            if up[k] && ups - 1 > n / 2 {
                up[k] = false;
            } else if !up[k] {
                g.restart(k);
                up[k] = true;
            }
            g.append(
                leaders(&g).first().copied().unwrap_or(0),
                (round * 10) as i64,
            );
        }
        let until = *now + 10_000;
        run_until(&mut g, &up, now, until, &mut rng);
        let live_leaders: Vec<usize> = leaders(&g).into_iter().filter(|&l| up[l]).collect();
        assert_eq!(live_leaders.len(), 1, "seed {seed}: {live_leaders:?}");
    }
}
