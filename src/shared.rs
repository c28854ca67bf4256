//! [`Shared`]: a value that copies of the world share until one of them changes it.
//!
//! The workshop's time travel keeps snapshots of the simulator (see `sim::timeline`). A big
//! cluster's world is about 40 MB, nearly all of it tables that change rarely (a NameServer's
//! topicQueueTable, a broker's topic configs): a snapshot every few seconds would not fit in memory
//! if each copied them. Behind `Shared`, a clone of the world shares them, and the first change
//! after a clone copies only the table changed.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// Copy-on-write ownership of a `T`: reads go through [`Deref`]; a mutable borrow copies the value
/// first when a clone still shares it (`Arc::make_mut`), so a clone never sees another's changes.
#[derive(Default, PartialEq, Eq)]
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    /// Owns `value`, unshared.
    pub fn new(value: T) -> Self {
        Self(Arc::new(value))
    }

    /// Whether `a` and `b` share one value (a clone not changed since).
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// A clone shares the value until one side writes; the writer gets its own copy and the other
    /// keeps the old value.
    #[test]
    fn clones_share_until_written() {
        let mut a = Shared::new(vec![1, 2]);
        let b = a.clone();
        assert!(Shared::ptr_eq(&a, &b));
        a.push(3);
        assert!(!Shared::ptr_eq(&a, &b));
        assert_eq!(*a, vec![1, 2, 3]);
        assert_eq!(*b, vec![1, 2]);
        let before = Shared::clone(&a);
        let _read = a.len();
        assert!(Shared::ptr_eq(&a, &before), "a read copies nothing");
    }
}
