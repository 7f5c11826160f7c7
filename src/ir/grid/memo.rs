//! The last answers of `adjacent` on a set and of `connected` from a
//! cell, kept for the next question with the same operands: rules ask
//! them again and again about sets that seldom change (the cells holding
//! one sort of piece, the pieces on the board), option after option and
//! try after try. An answer is kept with the words of the set it was
//! found from, compared word for word with the next question's, so it is
//! only ever given again for the same question.

use super::{connected, has, neighbours_of_set};
use crate::ir::bits::{self, Bits};
use crate::ir::ruleset::Kind;

/// The longest set kept (in words: 512 cells); the answers about longer
/// ones are not kept.
const KEPT_WORDS: usize = 8;

/// The answers kept (see the module's comment), in a block of their own
/// made at the first question (the state, moved as a whole, stays
/// small). A copy starts with none.
#[derive(Debug, Default)]
pub struct GridMemo {
    /// The answers, once a question was asked.
    kept: Option<Box<Answers>>,
}

/// The answers a [`GridMemo`] keeps.
#[derive(Debug, Default)]
struct Answers {
    /// The last set of cells whose neighbours were asked, with the
    /// neighbours.
    adjacent: Kept,
    /// The last two regions found, each with the set it was flooded
    /// through: the rules ask about two in turn (the two sides of a
    /// conflict, two kingdoms).
    regions: [Kept; 2],
    /// Which of the `regions` was found or given last (the other is
    /// replaced by the next region found).
    latest: usize,
    /// Whether keeping neighbours pays, and regions.
    pays: [Pays; 2],
}

/// Whether keeping the answers of one sort of question pays: after
/// [`GIVE_UP`] questions in a row answered afresh, the next [`PAUSE`]
/// are answered without looking at the answers kept or keeping theirs
/// (rules that seldom ask the same question twice pay nothing for the
/// look), and the answers are then tried again.
#[derive(Debug, Default)]
struct Pays {
    /// The questions answered afresh in a row, then (from [`GIVE_UP`] on)
    /// those answered without the answers kept.
    misses: u32,
}

/// The questions answered afresh in a row after which [`Pays`] pauses.
const GIVE_UP: u32 = 8;

/// The questions a pause lasts (see [`Pays`]).
const PAUSE: u32 = 64;

impl Pays {
    /// Whether to look at the answers kept (and keep a new one) for this
    /// question.
    #[inline]
    fn look(&mut self) -> bool {
        if self.misses < GIVE_UP {
            return true;
        }
        self.misses += 1;
        if self.misses >= GIVE_UP + PAUSE {
            // A few questions to see whether the answers pay again.
            self.misses = GIVE_UP / 2;
        }
        false
    }

    /// Counts a question looked at: answered from the answers kept or not.
    #[inline]
    fn count(&mut self, kept: bool) {
        self.misses = if kept { 0 } else { self.misses + 1 };
    }
}

/// An answer kept, with the question it answers.
#[derive(Debug, Default)]
struct Kept {
    /// Whether an answer is kept (the fields below hold it).
    held: bool,
    /// The grid kind's number.
    kind: usize,
    /// The words of the set asked about: `len` of them, the rest 0.
    of: [u64; KEPT_WORDS],
    /// How many words the set asked about has.
    len: usize,
    /// The answer.
    answer: Bits,
}

impl Kept {
    /// Whether the answer was found on grid kind `k` from the set `of`:
    /// its words compared without a branch each (a few words, most often
    /// the same).
    #[inline]
    fn is_of(&self, k: usize, of: &[u64]) -> bool {
        self.held
            && self.kind == k
            && self.len == of.len()
            && of.iter().zip(&self.of).fold(0, |d, (a, b)| d | (a ^ b)) == 0
    }

    /// Keeps the answer `answer` found on grid kind number `k` from the
    /// set `of` (nothing, and no answer kept, when the set is longer than
    /// [`KEPT_WORDS`]).
    #[inline]
    fn keep(&mut self, k: usize, of: &[u64], answer: &Bits) {
        self.held = of.len() <= KEPT_WORDS;
        if self.held {
            self.kind = k;
            self.len = of.len();
            self.of = std::array::from_fn(|i| of.get(i).copied().unwrap_or(0));
            self.answer = answer.clone();
        }
    }
}

impl Clone for GridMemo {
    /// No answer kept: a copy starts afresh (the answers are a shortcut).
    fn clone(&self) -> GridMemo {
        GridMemo::default()
    }
}

impl GridMemo {
    /// The neighbours of the cells of `set` (`adjacent`), on grid kind
    /// number `k` (`kind`, which has shifts): as [`neighbours_of_set`]
    /// puts them in a set of the kind's cells.
    pub fn neighbours(&mut self, k: usize, kind: &Kind, set: &[u64]) -> Bits {
        let kept = &mut **self.kept.get_or_insert_with(Box::default);
        let look = kept.pays[0].look();
        if look && kept.adjacent.is_of(k, set) {
            kept.pays[0].count(true);
            return kept.adjacent.answer.clone();
        }
        let mut answer = bits::empty(kind.items.len());
        neighbours_of_set(kind, set, &mut answer);
        if look {
            kept.pays[0].count(false);
            kept.adjacent.keep(k, set, &answer);
        }
        answer
    }

    /// The cells of `within` connected to the cell `start` on grid kind
    /// number `k` (`kind`), as [`connected`] finds them. A region kept for
    /// the same set holding `start` is the answer: the cells connected to
    /// any cell of a region are that region.
    pub fn connected(&mut self, k: usize, kind: &Kind, start: usize, within: &[u64]) -> Bits {
        let kept = &mut **self.kept.get_or_insert_with(Box::default);
        let look = kept.pays[1].look();
        if look {
            for i in [kept.latest, 1 - kept.latest] {
                let region = &kept.regions[i];
                if region.is_of(k, within) && has(&region.answer, start) {
                    kept.latest = i;
                    kept.pays[1].count(true);
                    return region.answer.clone();
                }
            }
        }
        let answer = connected(kind, start, within);
        if look && has(&answer, start) {
            kept.pays[1].count(false);
            kept.latest = 1 - kept.latest;
            kept.regions[kept.latest].keep(k, within, &answer);
        }
        answer
    }
}
