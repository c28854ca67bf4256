//! Where the workshop's picture of the cluster (`ui/topology/`) puts things: across a wide screen
//! (a laptop, a projector), or down a narrow one (a phone).
//!
//! Wide, the drawing is [`W`] units across and scaled to the page: NameServers in a row along the
//! top, producers down the left side, broker groups in rows, consumers below. Narrow, the drawing is
//! as many units across as the page has CSS pixels, so it is never scaled down and every label keeps
//! its size; things are stacked: NameServers, then producers, then broker groups (two single-broker
//! groups side by side), then consumers. A big cluster (one node per group) shows the groups that
//! need attention first, and only as many as fit the first screen ([`NARROW_GROUPS`] on a phone,
//! [`WIDE_GROUP_ROWS`] rows on a projector) until the learner asks for all.

/// The wide drawing's width in SVG units.
pub const W: f64 = 1000.0;
/// Below this width of the picture's box (CSS px) the picture is laid out for a narrow screen: a
/// phone held upright (its box is the screen less the page's margins). A 1024 px laptop's box,
/// beside the inspector, is about 640 px: wide.
pub const NARROW_BELOW: f64 = 560.0;
/// The narrowest drawing laid out (a box not laid out yet measures 0).
pub const NARROW_MIN: f64 = 280.0;
/// A big cluster's groups shown at first on a narrow screen.
pub const NARROW_GROUPS: usize = 12;
/// Rows of a big cluster's groups shown at first on a wide screen: with the header, the clock and
/// the teacher's class bar, what a 1280×720 projector has room for.
pub const WIDE_GROUP_ROWS: usize = 3;

/// How the picture is laid out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fit {
    /// [`W`] units across, scaled to the page; `all_groups`: a big cluster's every group shown.
    Wide { all_groups: bool },
    /// `width` units across, one per CSS pixel.
    Narrow { width: f64, all_groups: bool },
}

impl Fit {
    /// The drawing's width in SVG units.
    pub fn width(self) -> f64 {
        match self {
            Fit::Wide { .. } => W,
            Fit::Narrow { width, .. } => width,
        }
    }

    pub fn is_narrow(self) -> bool {
        matches!(self, Fit::Narrow { .. })
    }

    /// Whether a big cluster's every group is drawn.
    pub fn all_groups(self) -> bool {
        match self {
            Fit::Wide { all_groups } | Fit::Narrow { all_groups, .. } => all_groups,
        }
    }
}

/// How many things `cell` units wide fit side by side in `width` (at least one).
pub fn per_row(width: f64, cell: f64) -> usize {
    ((width / cell).floor() as usize).max(1)
}

/// The centre of the `i`th of `n` things laid in rows of `per_row` across `width`, rows `row_h`
/// apart from `y0`: each row's things spread evenly over the width (a short last row too).
pub fn grid(i: usize, n: usize, per_row: usize, width: f64, y0: f64, row_h: f64) -> (f64, f64) {
    let row = i / per_row;
    let in_row = per_row.min(n - row * per_row);
    let col = i % per_row;
    (
        width * (col as f64 + 0.5) / in_row as f64,
        y0 + row_h * row as f64,
    )
}

/// Where a block of `n` things laid out by [`grid`] ends: its last row's centre plus `half` (half a
/// thing's height); half a row above `y0` when it is empty.
pub fn grid_bottom(n: usize, per_row: usize, y0: f64, row_h: f64, half: f64) -> f64 {
    if n == 0 {
        return y0 - row_h / 2.0;
    }
    y0 + row_h * (n.div_ceil(per_row) - 1) as f64 + half
}

/// A broker's width in a group's box. Wide: 120 units (a master's and a slave's addresses side by
/// side stay apart in presentation mode's larger type); a big cluster's one node per group, 34.
/// Narrow: two single-broker groups fit side by side, and a group's brokers share the row; a big
/// cluster's groups are 50 units (a label of 14 px inside each).
pub fn member_width(fit: Fit, collapsed: bool, members: usize) -> f64 {
    match (fit, collapsed) {
        (Fit::Wide { .. }, true) => 34.0,
        (Fit::Narrow { .. }, true) => 50.0,
        (Fit::Wide { .. }, false) => 120.0,
        (Fit::Narrow { width, .. }, false) => {
            let single = ((width - 16.0) / 2.0 - 12.0).clamp(96.0, 170.0);
            single.min((width - 20.0) / members.max(1) as f64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_spreads_each_row_over_the_width() {
        // Three per row, four things: a row of three, then one in the middle.
        assert_eq!(grid(0, 4, 3, 360.0, 30.0, 50.0), (60.0, 30.0));
        assert_eq!(grid(2, 4, 3, 360.0, 30.0, 50.0), (300.0, 30.0));
        assert_eq!(grid(3, 4, 3, 360.0, 30.0, 50.0), (180.0, 80.0));
        assert_eq!(grid_bottom(4, 3, 30.0, 50.0, 20.0), 100.0);
        assert_eq!(per_row(360.0, 120.0), 3);
        assert_eq!(per_row(50.0, 120.0), 1);
    }

    #[test]
    fn narrow_groups_share_the_width() {
        let fit = Fit::Narrow {
            width: 358.0,
            all_groups: false,
        };
        // Two single-broker groups side by side: 4 + box + 8 + box ≤ 358 − 4.
        let single = member_width(fit, false, 1) + 12.0;
        assert!(4.0 + single + 8.0 + single <= 354.0, "{single}");
        // Three brokers of one group share the row.
        assert!(3.0 * member_width(fit, false, 3) + 12.0 <= 350.0);
        assert_eq!(
            member_width(Fit::Wide { all_groups: false }, false, 3),
            120.0
        );
    }
}
