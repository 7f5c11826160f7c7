//! Verdicts the look-ahead found while a listing tried an option, kept
//! with that option's try: when the try is put back, the next listing,
//! at the decision the look-ahead looked through, takes them rather than
//! trying those options again (see [`super::lookahead::dead_end`]).

use super::budget::Budget;
use super::lookahead::Noted;
use super::Verdict;

/// The look-ahead's verdicts a listing keeps (see the module's doc).
#[derive(Default)]
pub(crate) struct Looks {
    /// Those of the tries kept, by the try's index among the listing's
    /// legal options.
    looked: Vec<(usize, Noted)>,
    /// Those of the try last put back, for options of the decision the
    /// state then waits at.
    known: Vec<Noted>,
    /// Those of the try in progress (a buffer).
    pub(super) notes: Vec<Noted>,
}

impl Clone for Looks {
    /// None (a copy of a game applies its options by running them).
    fn clone(&self) -> Looks {
        Looks::default()
    }
}

impl Looks {
    /// Keeps the verdicts of the try in progress, the one of the
    /// `index`-th legal option, kept.
    #[inline]
    pub(super) fn keep(&mut self, index: usize) {
        if self.notes.is_empty() {
            return;
        }
        self.looked.extend(self.notes.drain(..).map(|n| (index, n)));
    }

    /// The verdict known for the `i`-th option, the ways and steps
    /// finding it took taken from `budget` (`None`: it is to be tried).
    #[inline]
    pub(super) fn known(&self, i: usize, budget: &mut Budget) -> Option<Verdict> {
        if self.known.is_empty() {
            return None;
        }
        let n = self.known.iter().find(|n| n.option as usize == i)?;
        budget.take_spent(n.spent).then_some(n.verdict)
    }

    /// The try of the `index`-th legal option is put back: its verdicts
    /// are known for the next listing, the others forgotten.
    pub(super) fn put_back(&mut self, index: usize) {
        self.known.clear();
        let looked = self.looked.iter().filter(|(i, _)| *i == index);
        self.known.extend(looked.map(|&(_, n)| n));
        self.forget_tries();
    }

    /// Forgets the verdicts of the tries (not the known ones).
    #[inline]
    pub(crate) fn forget_tries(&mut self) {
        self.looked.clear();
        self.notes.clear();
    }

    /// Forgets the known verdicts (the state they were found on may
    /// change).
    #[inline]
    pub(crate) fn forget_known(&mut self) {
        self.known.clear();
    }
}
