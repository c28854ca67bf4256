//! DLedger's leader election among a broker group's replicas (RocketMQ 4.5+ `enableDLegerCommitLog`;
//! `DLedgerLeaderElector` and `MemberState` of the dledger library RocketMQ 4.9.8 ships), as a pure
//! state machine: the simulator says which members answer and what time it is; requests between
//! members are answered at once.
//!
//! Every member starts a candidate. A candidate whose vote is due asks every member (itself first)
//! for its vote in its term; a member grants it when the candidate's log is at least as long as its
//! own and it has not voted for another in that term; a larger term makes the member a candidate of
//! that term first (it answers "term not ready", and the candidate asks again at once). A majority
//! of accepts makes a leader, which heartbeats every member every 2 s; a follower that has not heard
//! its leader for 3 heartbeats (6 s) stands again, and so does a leader that has not heard back
//! from a majority for as long.

use crate::rng::SeededRng;

/// `heartBeatTimeIntervalMs` (DLedgerConfig): a leader's heartbeat period.
pub const HEARTBEAT_INTERVAL_MS: u64 = 2_000;
/// `maxHeartBeatLeak` (DLedgerConfig): heartbeats a follower may miss before it stands.
pub const MAX_HEARTBEAT_LEAK: u64 = 3;
/// `minVoteIntervalMs`, `maxVoteIntervalMs` (DLedgerConfig): a candidate's random wait before it
/// asks again.
pub const VOTE_INTERVAL_MS: (u64, u64) = (300, 1_000);
/// `voteLatch.await(2000 + random(maxVoteIntervalMs))`: how long a candidate waits for answers that
/// do not come (a member down).
pub const VOTE_WAIT_MS: u64 = 2_000;
/// The state maintainer's loop (`waitForRunning(10)`): how late a due check runs at most.
pub const LOOP_MS: u64 = 10;

/// A member's role (`MemberState.Role`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Candidate,
    Follower,
    Leader,
}

/// The outcome of a candidate's last vote (`VoteResponse.ParseResult`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parse {
    WaitToRevote,
    RevoteImmediately,
    WaitToVoteNext,
    Passed,
}

/// A member's answer to a vote request (`VoteResponse.RESULT`); None: no answer (down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Vote {
    Accept,
    AlreadyVoted,
    AlreadyHasLeader,
    /// With the member's term.
    ExpiredVoteTerm(u64),
    ExpiredLedgerTerm,
    SmallLedgerEndIndex,
    TermNotReady,
    /// With the member's ledger end term.
    TermSmallThanLedger(u64),
}

/// A member's answer to a heartbeat (`DLedgerResponseCode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Beat {
    Success,
    /// With the member's term.
    ExpiredTerm(u64),
    InconsistentLeader,
    TermNotReady,
}

/// One member of a DLedger group (`MemberState` and its elector's timers).
#[derive(Clone, Debug)]
pub struct Member {
    pub role: Role,
    /// `currTerm`.
    pub term: u64,
    /// The leader it knows, by index.
    pub leader: Option<usize>,
    vote_for: Option<usize>,
    known_max_term: u64,
    /// How far its log goes (`ledgerEndIndex`, -1 when empty) and the term of its last entry.
    pub ledger_end_index: i64,
    pub ledger_end_term: u64,
    last_parse: Parse,
    need_increase: bool,
    /// When it may ask for votes next (0: at once).
    next_vote_at: u64,
    last_leader_heartbeat: u64,
    /// When it last sent heartbeats as leader (None: send at once).
    last_send_heartbeat: Option<u64>,
    last_succ_heartbeat: u64,
}

impl Member {
    fn new() -> Self {
        Member {
            role: Role::Candidate,
            term: 0,
            leader: None,
            vote_for: None,
            known_max_term: 0,
            ledger_end_index: -1,
            ledger_end_term: 0,
            last_parse: Parse::WaitToRevote,
            need_increase: false,
            next_vote_at: 0,
            last_leader_heartbeat: 0,
            last_send_heartbeat: None,
            last_succ_heartbeat: 0,
        }
    }
}

/// A role a member took, for the broker's `DLedgerRoleChangeHandler`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoleChange {
    pub member: usize,
    pub term: u64,
    pub role: Role,
}

/// A leader elected: who, in which term, with how many accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elected {
    pub leader: usize,
    pub term: u64,
    pub votes: usize,
}

/// What one check of a member did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub changes: Vec<RoleChange>,
    pub elected: Option<Elected>,
}

/// A DLedger group's members (`dLegerPeers`, in the order of their ids n0, n1, …).
#[derive(Clone, Debug)]
pub struct Group {
    pub members: Vec<Member>,
}

impl Group {
    /// `n` members, each a candidate of term 0 with an empty log.
    pub fn new(n: usize) -> Self {
        Group {
            members: (0..n).map(|_| Member::new()).collect(),
        }
    }

    /// `MemberState.isQuorum`: more than half of the members.
    fn is_quorum(&self, n: usize) -> bool {
        n > self.members.len() / 2
    }

    /// A member starting again (its process restarted): its term, vote and log are on disk; it is a
    /// candidate that asks at once.
    pub fn restart(&mut self, i: usize) {
        let m = &mut self.members[i];
        *m = Member {
            term: m.term,
            vote_for: m.vote_for,
            known_max_term: m.known_max_term,
            ledger_end_index: m.ledger_end_index,
            ledger_end_term: m.ledger_end_term,
            ..Member::new()
        };
    }

    /// When member `i`'s state maintainer next has something to do.
    pub fn next_check(&self, i: usize) -> u64 {
        let m = &self.members[i];
        match m.role {
            Role::Leader => m
                .last_send_heartbeat
                .map_or(0, |t| t + HEARTBEAT_INTERVAL_MS + LOOP_MS),
            Role::Follower => {
                m.last_leader_heartbeat + HEARTBEAT_INTERVAL_MS * MAX_HEARTBEAT_LEAK + LOOP_MS
            }
            Role::Candidate if m.need_increase => 0,
            Role::Candidate => m.next_vote_at,
        }
    }

    /// The leader appended to its log up to `index` (the messages written to its group).
    pub fn append(&mut self, leader: usize, index: i64) {
        let m = &mut self.members[leader];
        if m.role == Role::Leader && index > m.ledger_end_index {
            m.ledger_end_index = index;
            m.ledger_end_term = m.term;
        }
    }

    /// `maintainState` of member `i` at `now`; `up[k]`: member k answers.
    pub fn check(&mut self, i: usize, now: u64, up: &[bool], rng: &mut SeededRng) -> Outcome {
        let mut out = Outcome::default();
        match self.members[i].role {
            Role::Leader => self.maintain_as_leader(i, now, up, &mut out),
            Role::Follower => {
                let m = &self.members[i];
                let leak = HEARTBEAT_INTERVAL_MS * MAX_HEARTBEAT_LEAK;
                if now.saturating_sub(m.last_leader_heartbeat) > leak {
                    let term = m.term;
                    self.become_candidate(i, term, &mut out);
                }
            }
            Role::Candidate => self.maintain_as_candidate(i, now, up, rng, &mut out),
        }
        out
    }

    fn maintain_as_leader(&mut self, i: usize, now: u64, up: &[bool], out: &mut Outcome) {
        let m = &self.members[i];
        if m.last_send_heartbeat
            .is_some_and(|t| now.saturating_sub(t) <= HEARTBEAT_INTERVAL_MS)
        {
            return;
        }
        let term = m.term;
        self.members[i].last_send_heartbeat = Some(now);
        // `sendHeartbeats`: every other member, answered at once; one down does not answer.
        let (mut succ, mut not_ready, mut max_term, mut inconsistent) = (1, 0, None, false);
        for (k, &k_up) in up.iter().enumerate().take(self.members.len()) {
            if k == i || !k_up {
                continue;
            }
            match self.handle_heartbeat(k, term, i, now, out) {
                Beat::Success => succ += 1,
                Beat::ExpiredTerm(t) => max_term = Some(t),
                Beat::InconsistentLeader => inconsistent = true,
                Beat::TermNotReady => not_ready += 1,
            }
        }
        if self.is_quorum(succ) {
            self.members[i].last_succ_heartbeat = now;
            return;
        }
        let leak = HEARTBEAT_INTERVAL_MS * MAX_HEARTBEAT_LEAK;
        if self.is_quorum(succ + not_ready) {
            self.members[i].last_send_heartbeat = None;
        } else if let Some(t) = max_term.filter(|t| *t > term) {
            self.become_candidate(i, t, out);
        } else if inconsistent || now.saturating_sub(self.members[i].last_succ_heartbeat) > leak {
            self.become_candidate(i, term, out);
        }
    }

    /// `handleHeartBeat` by member `k` from `leader` in `term`.
    fn handle_heartbeat(
        &mut self,
        k: usize,
        term: u64,
        leader: usize,
        now: u64,
        out: &mut Outcome,
    ) -> Beat {
        let m = &mut self.members[k];
        if term < m.term {
            return Beat::ExpiredTerm(m.term);
        }
        if term > m.term {
            // A candidate of it first, then a follower at the next heartbeat.
            self.not_ready_for(k, term, out);
            return Beat::TermNotReady;
        }
        match m.leader {
            None => {
                self.become_follower(k, term, leader, now, out);
                self.copy_log(k, leader);
                Beat::Success
            }
            Some(l) if l == leader => {
                m.last_leader_heartbeat = now;
                self.copy_log(k, leader);
                Beat::Success
            }
            Some(_) => Beat::InconsistentLeader,
        }
    }

    fn maintain_as_candidate(
        &mut self,
        i: usize,
        now: u64,
        up: &[bool],
        rng: &mut SeededRng,
        out: &mut Outcome,
    ) {
        let m = &mut self.members[i];
        if now < m.next_vote_at && !m.need_increase {
            return;
        }
        let term = if m.last_parse == Parse::WaitToVoteNext || m.need_increase {
            // `nextTerm`: the largest term heard of, or one more than its own.
            m.term = if m.known_max_term > m.term {
                m.known_max_term
            } else {
                m.term + 1
            };
            m.vote_for = None;
            m.last_parse = Parse::WaitToRevote;
            m.term
        } else {
            m.term
        };
        if m.need_increase {
            m.next_vote_at = now + vote_interval(rng);
            m.need_increase = false;
            return;
        }
        let (ledger_term, ledger_index) = (m.ledger_end_term, m.ledger_end_index);
        self.vote_for_themselves(i, term, now, up);
        let mut answers = Vec::with_capacity(self.members.len());
        for (k, &k_up) in up.iter().enumerate().take(self.members.len()) {
            let answer = (k == i || k_up)
                .then(|| self.handle_vote(k, i, term, ledger_term, ledger_index, out));
            answers.push(answer);
        }
        let (mut valid, mut accepted, mut not_ready, mut bigger_ledger) = (0, 0, 0, 0);
        let (mut has_leader, mut known_max) = (false, term);
        for a in answers.iter().flatten() {
            valid += 1;
            match *a {
                Vote::Accept => accepted += 1,
                Vote::AlreadyVoted => {}
                Vote::AlreadyHasLeader => has_leader = true,
                Vote::ExpiredVoteTerm(t) | Vote::TermSmallThanLedger(t) => {
                    known_max = known_max.max(t)
                }
                Vote::ExpiredLedgerTerm | Vote::SmallLedgerEndIndex => bigger_ledger += 1,
                Vote::TermNotReady => not_ready += 1,
            }
        }
        // The answers it waits for: all of them, unless a majority or a leader is known first.
        let released = has_leader
            || self.is_quorum(accepted)
            || self.is_quorum(accepted + not_ready)
            || valid == self.members.len();
        let at = if released {
            now
        } else {
            now + VOTE_WAIT_MS + rng.next_below(VOTE_INTERVAL_MS.1)
        };
        let parse = if known_max > term {
            self.members[i].next_vote_at = at + vote_interval(rng);
            self.become_candidate(i, known_max, out);
            Parse::WaitToVoteNext
        } else if has_leader {
            self.members[i].next_vote_at =
                at + vote_interval(rng) + HEARTBEAT_INTERVAL_MS * MAX_HEARTBEAT_LEAK;
            Parse::WaitToRevote
        } else if !self.is_quorum(valid) {
            self.members[i].next_vote_at = at + vote_interval(rng);
            Parse::WaitToRevote
        } else if !self.is_quorum(valid - bigger_ledger) {
            self.members[i].next_vote_at = at + vote_interval(rng) + VOTE_INTERVAL_MS.1;
            Parse::WaitToRevote
        } else if self.is_quorum(accepted) {
            Parse::Passed
        } else if self.is_quorum(accepted + not_ready) {
            self.members[i].next_vote_at = now + LOOP_MS;
            Parse::RevoteImmediately
        } else {
            self.members[i].next_vote_at = at + vote_interval(rng);
            Parse::WaitToVoteNext
        };
        self.members[i].last_parse = parse;
        if parse == Parse::Passed && self.members[i].term == term {
            let m = &mut self.members[i];
            m.role = Role::Leader;
            m.leader = Some(i);
            m.last_send_heartbeat = None;
            out.changes.push(RoleChange {
                member: i,
                term,
                role: Role::Leader,
            });
            out.elected = Some(Elected {
                leader: i,
                term,
                votes: accepted,
            });
        }
    }

    /// The members whose own vote in `term` falls due with candidate `i`'s (each runs its own state
    /// maintainer: at a common start they all ask at once): each has voted for itself before `i`'s
    /// request arrives.
    fn vote_for_themselves(&mut self, i: usize, term: u64, now: u64, up: &[bool]) {
        for (k, &k_up) in up.iter().enumerate().take(self.members.len()) {
            let m = &mut self.members[k];
            let due = m.role == Role::Candidate
                && !m.need_increase
                && m.last_parse != Parse::WaitToVoteNext
                && m.next_vote_at <= now;
            if k != i && k_up && due && m.term == term && m.vote_for.is_none() {
                m.vote_for = Some(k);
            }
        }
    }

    /// `handleVote` by member `k` for `candidate`.
    fn handle_vote(
        &mut self,
        k: usize,
        candidate: usize,
        term: u64,
        ledger_term: u64,
        ledger_index: i64,
        out: &mut Outcome,
    ) -> Vote {
        let m = &self.members[k];
        if ledger_term < m.ledger_end_term {
            return Vote::ExpiredLedgerTerm;
        }
        if ledger_term == m.ledger_end_term && ledger_index < m.ledger_end_index {
            return Vote::SmallLedgerEndIndex;
        }
        if term < m.term {
            return Vote::ExpiredVoteTerm(m.term);
        }
        if term > m.term {
            self.not_ready_for(k, term, out);
            return Vote::TermNotReady;
        }
        match m.vote_for {
            Some(v) if v != candidate && m.leader.is_some() => return Vote::AlreadyHasLeader,
            Some(v) if v != candidate => return Vote::AlreadyVoted,
            _ => {}
        }
        if term < m.ledger_end_term {
            return Vote::TermSmallThanLedger(m.ledger_end_term);
        }
        self.members[k].vote_for = Some(candidate);
        Vote::Accept
    }

    /// What the leader pushed (`DLedgerEntryPusher`), as the heartbeat arrives: follower `k`'s log
    /// is the leader's.
    fn copy_log(&mut self, k: usize, leader: usize) {
        let (index, term) = {
            let l = &self.members[leader];
            (l.ledger_end_index, l.ledger_end_term)
        };
        let m = &mut self.members[k];
        m.ledger_end_index = index;
        m.ledger_end_term = term;
    }

    /// A request of a larger term than member `k`'s: it stands in that term
    /// (`changeRoleToCandidate`) and moves to it at once (`needIncreaseTermImmediately`); the
    /// request is answered "term not ready".
    fn not_ready_for(&mut self, k: usize, term: u64, out: &mut Outcome) {
        self.become_candidate(k, term, out);
        self.members[k].need_increase = true;
    }

    /// `changeRoleToCandidate`: only to a term at least its own.
    fn become_candidate(&mut self, k: usize, term: u64, out: &mut Outcome) {
        let m = &mut self.members[k];
        if term < m.term {
            return;
        }
        m.known_max_term = m.known_max_term.max(term);
        m.role = Role::Candidate;
        m.leader = None;
        out.changes.push(RoleChange {
            member: k,
            term,
            role: Role::Candidate,
        });
    }

    /// `changeRoleToFollower`.
    fn become_follower(&mut self, k: usize, term: u64, leader: usize, now: u64, out: &mut Outcome) {
        let m = &mut self.members[k];
        m.last_parse = Parse::WaitToRevote;
        m.role = Role::Follower;
        m.leader = Some(leader);
        m.last_leader_heartbeat = now;
        out.changes.push(RoleChange {
            member: k,
            term,
            role: Role::Follower,
        });
    }
}

/// `getNextTimeToRequestVote`'s wait: 300 ms plus up to 700 ms.
fn vote_interval(rng: &mut SeededRng) -> u64 {
    VOTE_INTERVAL_MS.0 + rng.next_below(VOTE_INTERVAL_MS.1 - VOTE_INTERVAL_MS.0)
}

#[cfg(test)]
mod tests;
