//! The depth budget every reader that walks a parsed tree takes: `conf.py`,
//! test definitions, constants in each language, reStructuredText records,
//! a rule file's expressions, Python objects a page cites. What is parsed
//! comes from the audited repository or an operator, so its nesting is the
//! input's to choose; a walker that recursed once per level without a bound
//! let a 100 KB file overflow the stack (exit 134, no report). Each walker
//! takes a [`Depth`], goes one level down with [`Depth::deeper`], and stops
//! where [`Depth::exhausted`] says so: past it the input is read as plain
//! text, as not static, or as unread, and said so, never a crash.
//!
//! Ground floor: imports nothing of the crate.

/// How deep any walk of a parsed tree may go: the one budget all readers
/// share. 200 frames of the deepest walker stay well inside the 2 MiB stack
/// of a worker thread; real inputs nest a few dozen levels at most (a
/// constant's expression, a test module, an `if` in `conf.py`).
pub const MAX_DEPTH: usize = 200;

/// Where a walk is in a parsed tree, and how deep it may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Depth {
    level: usize,
    limit: usize,
}

impl Depth {
    /// The top of a walk under the shared budget.
    pub const ROOT: Depth = Depth {
        level: 0,
        limit: MAX_DEPTH,
    };

    /// The top of a walk that stops sooner than the shared budget, for a
    /// reason of its own (what a reader needs to see, or what a level costs
    /// it); never later than [`MAX_DEPTH`].
    pub const fn stopping_at(limit: usize) -> Depth {
        Depth {
            level: 0,
            limit: if limit < MAX_DEPTH { limit } else { MAX_DEPTH },
        }
    }

    /// How many levels down the walk is.
    pub const fn level(self) -> usize {
        self.level
    }

    /// The deepest level the walk may read.
    pub const fn limit(self) -> usize {
        self.limit
    }

    /// One level further down.
    #[must_use]
    pub const fn deeper(self) -> Depth {
        Depth {
            level: self.level.saturating_add(1),
            limit: self.limit,
        }
    }

    /// One level back up, for a walker that keeps its depth in a field (a
    /// recursive-descent parser).
    #[must_use]
    pub const fn shallower(self) -> Depth {
        Depth {
            level: self.level.saturating_sub(1),
            limit: self.limit,
        }
    }

    /// Whether the walk has gone past its budget: it must read no further
    /// down.
    pub const fn exhausted(self) -> bool {
        self.level > self.limit
    }

    /// What a reader says of input past the budget.
    pub fn too_deep(self) -> String {
        format!("nests deeper than {} levels", self.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_is_exhausted_one_level_past_its_limit_and_never_past_the_shared_one() {
        let mut depth = Depth::stopping_at(2);
        assert!(!depth.exhausted());
        depth = depth.deeper().deeper();
        assert_eq!(depth.level(), 2);
        assert!(!depth.exhausted());
        assert!(depth.deeper().exhausted());
        assert_eq!(depth.deeper().shallower(), depth);
        assert_eq!(Depth::stopping_at(usize::MAX).limit(), MAX_DEPTH);
        assert_eq!(Depth::ROOT.too_deep(), "nests deeper than 200 levels");
    }
}
