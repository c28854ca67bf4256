//! The red-black tree of a treeified bin (`HashMap.TreeNode`, `ConcurrentHashMap.TreeBin`): the
//! same insertion, deletion and rotations as the JDK, so that the tree's shape — its root, and each
//! new node's parent — is Java's. The shape matters for order: HashMap moves the root to the front of
//! the bucket and puts a new key right after its parent, and both maps turn a tree back into a list
//! after a removal when the root lacks a grandchild on the left.
//!
//! Nodes are the table's slot numbers; the links live here, indexed by slot.

/// No node.
pub(super) const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Links {
    parent: u32,
    left: u32,
    right: u32,
    red: bool,
}

const DETACHED: Links = Links {
    parent: NIL,
    left: NIL,
    right: NIL,
    red: false,
};

/// The links of every node of every tree bin of one table.
#[derive(Clone, Debug, Default)]
pub(super) struct Forest {
    links: Vec<Links>,
}

impl Forest {
    fn at(&mut self, n: u32) -> &mut Links {
        let i = n as usize;
        if self.links.len() <= i {
            self.links.resize(i + 1, DETACHED);
        }
        &mut self.links[i]
    }

    fn get(&self, n: u32) -> Links {
        self.links.get(n as usize).copied().unwrap_or(DETACHED)
    }

    fn parent(&self, n: u32) -> u32 {
        if n == NIL {
            NIL
        } else {
            self.get(n).parent
        }
    }
    fn left(&self, n: u32) -> u32 {
        if n == NIL {
            NIL
        } else {
            self.get(n).left
        }
    }
    fn right(&self, n: u32) -> u32 {
        if n == NIL {
            NIL
        } else {
            self.get(n).right
        }
    }
    fn red(&self, n: u32) -> bool {
        n != NIL && self.get(n).red
    }
    fn set_red(&mut self, n: u32, red: bool) {
        if n != NIL {
            self.at(n).red = red;
        }
    }
    fn set_parent(&mut self, n: u32, p: u32) {
        if n != NIL {
            self.at(n).parent = p;
        }
    }
    fn set_left(&mut self, n: u32, c: u32) {
        if n != NIL {
            self.at(n).left = c;
        }
    }
    fn set_right(&mut self, n: u32, c: u32) {
        if n != NIL {
            self.at(n).right = c;
        }
    }

    /// Forgets a node's links (it left its tree, or its bin became a list).
    pub(super) fn clear(&mut self, n: u32) {
        if let Some(l) = self.links.get_mut(n as usize) {
            *l = DETACHED;
        }
    }

    /// Builds a tree from `nodes` in their order, as `treeify` and `new TreeBin(list)` do; returns
    /// the root. `dir(x, p)` is Java's comparison of a node being placed with a node of the tree
    /// (hash, then `compareTo`, then the tie-break): ≤ 0 goes left.
    pub(super) fn build(&mut self, nodes: &[u32], dir: &mut dyn FnMut(u32, u32) -> i32) -> u32 {
        let mut root = NIL;
        for &x in nodes {
            *self.at(x) = DETACHED;
            if root == NIL {
                root = x;
            } else {
                root = self.insert(root, x, dir).0;
            }
        }
        root
    }

    /// Places `x` under `root` and rebalances; returns the new root and `x`'s parent at placement
    /// (HashMap puts `x` right after it in the bucket's order).
    pub(super) fn insert(
        &mut self,
        root: u32,
        x: u32,
        dir: &mut dyn FnMut(u32, u32) -> i32,
    ) -> (u32, u32) {
        *self.at(x) = DETACHED;
        let mut p = root;
        loop {
            let d = dir(x, p);
            let xp = p;
            p = if d <= 0 { self.left(p) } else { self.right(p) };
            if p == NIL {
                self.set_parent(x, xp);
                if d <= 0 {
                    self.set_left(xp, x);
                } else {
                    self.set_right(xp, x);
                }
                return (self.balance_insertion(root, x), xp);
            }
        }
    }

    /// True when a removal must turn the bin back into a list: the root lacks a right child, a
    /// left child, or a left-left grandchild (both maps test this before removing).
    pub(super) fn too_small(&self, root: u32) -> bool {
        root == NIL
            || self.right(root) == NIL
            || self.left(root) == NIL
            || self.left(self.left(root)) == NIL
    }

    /// Unlinks `p` from the tree of `root` (the JDK's swap-with-successor deletion); returns the
    /// new root.
    pub(super) fn remove(&mut self, mut root: u32, p: u32) -> u32 {
        let (pl, pr) = (self.left(p), self.right(p));
        let replacement;
        if pl != NIL && pr != NIL {
            let mut s = pr;
            while self.left(s) != NIL {
                s = self.left(s);
            }
            let c = self.red(s);
            let pred = self.red(p);
            self.set_red(s, pred);
            self.set_red(p, c);
            let sr = self.right(s);
            let pp = self.parent(p);
            if s == pr {
                self.set_parent(p, s);
                self.set_right(s, p);
            } else {
                let sp = self.parent(s);
                self.set_parent(p, sp);
                if sp != NIL {
                    if s == self.left(sp) {
                        self.set_left(sp, p);
                    } else {
                        self.set_right(sp, p);
                    }
                }
                self.set_right(s, pr);
                self.set_parent(pr, s);
            }
            self.set_left(p, NIL);
            self.set_right(p, sr);
            self.set_parent(sr, p);
            self.set_left(s, pl);
            self.set_parent(pl, s);
            self.set_parent(s, pp);
            if pp == NIL {
                root = s;
            } else if p == self.left(pp) {
                self.set_left(pp, s);
            } else {
                self.set_right(pp, s);
            }
            replacement = if sr != NIL { sr } else { p };
        } else if pl != NIL {
            replacement = pl;
        } else if pr != NIL {
            replacement = pr;
        } else {
            replacement = p;
        }
        if replacement != p {
            let pp = self.parent(p);
            self.set_parent(replacement, pp);
            if pp == NIL {
                root = replacement;
                self.set_red(replacement, false);
            } else if p == self.left(pp) {
                self.set_left(pp, replacement);
            } else {
                self.set_right(pp, replacement);
            }
            self.set_left(p, NIL);
            self.set_right(p, NIL);
            self.set_parent(p, NIL);
        }
        let r = if self.red(p) {
            root
        } else {
            self.balance_deletion(root, replacement)
        };
        if replacement == p {
            let pp = self.parent(p);
            self.set_parent(p, NIL);
            if pp != NIL {
                if p == self.left(pp) {
                    self.set_left(pp, NIL);
                } else if p == self.right(pp) {
                    self.set_right(pp, NIL);
                }
            }
        }
        self.clear(p);
        r
    }

    fn child(&self, n: u32, side: Side) -> u32 {
        match side {
            Side::Left => self.left(n),
            Side::Right => self.right(n),
        }
    }

    fn set_child(&mut self, n: u32, side: Side, c: u32) {
        match side {
            Side::Left => self.set_left(n, c),
            Side::Right => self.set_right(n, c),
        }
    }

    /// `rotateLeft` (`side` Left: `p`'s right child takes its place) or `rotateRight`.
    fn rotate(&mut self, mut root: u32, p: u32, side: Side) -> u32 {
        let up = side.other();
        let r = self.child(p, up);
        if p == NIL || r == NIL {
            return root;
        }
        let inner = self.child(r, side);
        self.set_child(p, up, inner);
        self.set_parent(inner, p);
        let pp = self.parent(p);
        self.set_parent(r, pp);
        if pp == NIL {
            root = r;
            self.set_red(r, false);
        } else if self.child(pp, side) == p {
            self.set_child(pp, side, r);
        } else {
            self.set_child(pp, side.other(), r);
        }
        self.set_child(r, side, p);
        self.set_parent(p, r);
        root
    }

    /// `balanceInsertion`; the JDK writes its two mirror-image halves out, `side` says which one.
    fn balance_insertion(&mut self, mut root: u32, mut x: u32) -> u32 {
        self.set_red(x, true);
        loop {
            let mut xp = self.parent(x);
            if xp == NIL {
                self.set_red(x, false);
                return x;
            }
            let mut xpp = self.parent(xp);
            if !self.red(xp) || xpp == NIL {
                return root;
            }
            let side = if xp == self.left(xpp) {
                Side::Left
            } else {
                Side::Right
            };
            let uncle = self.child(xpp, side.other());
            if self.red(uncle) {
                self.set_red(uncle, false);
                self.set_red(xp, false);
                self.set_red(xpp, true);
                x = xpp;
                continue;
            }
            if x == self.child(xp, side.other()) {
                x = xp;
                root = self.rotate(root, x, side);
                xp = self.parent(x);
                xpp = self.parent(xp);
            }
            if xp != NIL {
                self.set_red(xp, false);
                if xpp != NIL {
                    self.set_red(xpp, true);
                    root = self.rotate(root, xpp, side.other());
                }
            }
        }
    }

    /// `balanceDeletion`, its mirror-image halves folded as in [`Self::balance_insertion`].
    fn balance_deletion(&mut self, mut root: u32, mut x: u32) -> u32 {
        loop {
            if x == NIL || x == root {
                return root;
            }
            let mut xp = self.parent(x);
            if xp == NIL {
                self.set_red(x, false);
                return x;
            }
            if self.red(x) {
                self.set_red(x, false);
                return root;
            }
            let side = if self.left(xp) == x {
                Side::Left
            } else {
                Side::Right
            };
            let far_side = side.other();
            let mut sib = self.child(xp, far_side);
            if self.red(sib) {
                self.set_red(sib, false);
                self.set_red(xp, true);
                root = self.rotate(root, xp, side);
                xp = self.parent(x);
                sib = self.child(xp, far_side);
            }
            if sib == NIL {
                x = xp;
                continue;
            }
            let (near, far) = (self.child(sib, side), self.child(sib, far_side));
            if !self.red(far) && !self.red(near) {
                self.set_red(sib, true);
                x = xp;
                continue;
            }
            if !self.red(far) {
                self.set_red(near, false);
                self.set_red(sib, true);
                root = self.rotate(root, sib, far_side);
                xp = self.parent(x);
                sib = self.child(xp, far_side);
            }
            if sib != NIL {
                let c = xp != NIL && self.red(xp);
                self.set_red(sib, c);
                self.set_red(self.child(sib, far_side), false);
            }
            if xp != NIL {
                self.set_red(xp, false);
                root = self.rotate(root, xp, side);
            }
            x = root;
        }
    }
}

/// Which child.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

impl Side {
    fn other(self) -> Self {
        match self {
            Self::Left => Self::Right,
            Self::Right => Self::Left,
        }
    }
}
