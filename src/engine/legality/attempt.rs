//! The try state: an option tried in place on the state, put back as it
//! was however the try ends.

use std::mem;
use std::ops::{Deref, DerefMut};

use rand_pcg::Pcg64;

use crate::engine::state::{State, Status, Vm};

/// An option being tried in place. While it lives, every word written is
/// recorded in the state's trail, and what else a run may change (the
/// program's stack, frames and options, the random generator, the status,
/// the try flags) is set aside; when it is dropped, on whatever way out
/// (a return, a `?`, a panic), the state is put back as it was.
/// [`Attempt::keep`] makes the try the state instead.
///
/// It copies no state: the words come back from the trail, the stack and
/// frames are copied into buffers reused from earlier tries (the state's
/// `spare`), the pending options are moved aside, not copied.
pub(crate) struct Attempt<'s> {
    st: &'s mut State,
    /// What the try may change, as it was (taken when kept).
    saved: Option<Saved>,
}

/// What an [`Attempt`] set aside.
struct Saved {
    vm: Box<Vm>,
    rng: Pcg64,
    status: Status,
    trail: usize,
    recording: bool,
    cut_at_legal: bool,
}

impl<'s> Attempt<'s> {
    /// Starts trying on `st`: a run stops at `legal;` when `cut`.
    #[inline]
    pub(crate) fn begin(st: &'s mut State, cut: bool) -> Attempt<'s> {
        // The options of the pending choice are not needed while one of
        // them is tried: they are moved aside, not copied.
        let saved = Saved {
            vm: st.spare.set_aside(&mut st.vm),
            rng: st.rng.clone(),
            status: st.status.clone(),
            trail: st.trail.len(),
            recording: mem::replace(&mut st.recording, true),
            cut_at_legal: mem::replace(&mut st.cut_at_legal, cut),
        };
        Attempt {
            st,
            saved: Some(saved),
        }
    }

    /// Keeps everything the try did: it becomes the state.
    #[inline]
    pub(crate) fn keep(mut self) {
        let Some(s) = self.saved.take() else {
            return;
        };
        let st = &mut *self.st;
        // Inside another try, the words written stay on the trail: that
        // try's undo puts them back too.
        if !s.recording {
            st.trail.truncate(s.trail);
        }
        st.recording = s.recording;
        st.cut_at_legal = s.cut_at_legal;
        st.spare.give_boxed(s.vm);
    }

    /// Undoes the try, as dropping it does, and returns what the try left
    /// (see [`Tried`]): the words it wrote, as they ended, and the
    /// program it left, moved out rather than copied.
    #[inline]
    pub(crate) fn undo_keeping(mut self) -> Tried {
        let s = self.saved.take().expect("a try in progress");
        let st = &mut *self.st;
        let mut words = st.spare.words();
        // Newest first: a word written twice is listed with its last
        // value first.
        while st.trail.len() > s.trail {
            let (i, old) = st.trail.pop().expect("trail entry");
            words.push((i, mem::replace(&mut st.words[i as usize], old)));
        }
        let mut vm = s.vm;
        mem::swap(&mut st.vm, &mut vm);
        let tried = Tried {
            words,
            vm,
            rng: mem::replace(&mut st.rng, s.rng),
            status: mem::replace(&mut st.status, s.status),
        };
        st.recording = s.recording;
        st.cut_at_legal = s.cut_at_legal;
        tried
    }
}

/// What a try left when it was undone ([`Attempt::undo_keeping`]):
/// putting it back ([`Tried::redo`]) gives the state the same run would
/// give again from where the try began, without running it.
pub(crate) struct Tried {
    /// The words the try wrote with the values they ended with, the last
    /// written first (a word may be listed more than once).
    words: Vec<(u32, i64)>,
    vm: Box<Vm>,
    rng: Pcg64,
    status: Status,
}

impl Tried {
    /// Puts the try back on `st`, the state it was tried on (as it was
    /// when the try began, no try in progress).
    pub(crate) fn redo(self, st: &mut State) {
        debug_assert!(!st.recording, "a try put back during a try");
        // Oldest first, so that a word written twice ends with its last
        // value.
        for &(i, v) in self.words.iter().rev() {
            st.words[i as usize] = v;
        }
        put_back(st, self.vm);
        st.spare.give_words(self.words);
        st.rng = self.rng;
        st.status = self.status;
    }

    /// Gives the try's buffers back to `st`'s spares (it is not put back).
    pub(crate) fn recycle(self, st: &mut State) {
        st.spare.give_boxed(self.vm);
        st.spare.give_words(self.words);
    }
}

/// Makes `vm` the state's program again; the program it replaces gives
/// its buffers (in `vm`'s box) to the spares.
#[inline]
fn put_back(st: &mut State, mut vm: Box<Vm>) {
    mem::swap(&mut st.vm, &mut vm);
    st.spare.give_boxed(vm);
}

impl Drop for Attempt<'_> {
    /// Undoes the try.
    #[inline]
    fn drop(&mut self) {
        let Some(s) = self.saved.take() else {
            return;
        };
        let st = &mut *self.st;
        while st.trail.len() > s.trail {
            let (i, old) = st.trail.pop().expect("trail entry");
            st.words[i as usize] = old;
        }
        put_back(st, s.vm);
        st.rng = s.rng;
        st.status = s.status;
        st.recording = s.recording;
        st.cut_at_legal = s.cut_at_legal;
    }
}

impl Deref for Attempt<'_> {
    type Target = State;

    #[inline]
    fn deref(&self) -> &State {
        self.st
    }
}

impl DerefMut for Attempt<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut State {
        self.st
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_try_kept_inside_another_is_undone_with_it() {
        let mut st = State::of_words(vec![0; 3], 2, 0);
        {
            let mut outer = Attempt::begin(&mut st, true);
            assert!(outer.touch(0, 1));
            outer.words[0] = 5;
            let mut inner = Attempt::begin(&mut outer, true);
            assert!(inner.touch(1, 2));
            inner.words[1] = 7;
            inner.keep();
            assert_eq!(outer.words, [5, 7, 0]);
            assert!(outer.recording);
        }
        assert_eq!(st.words, [0, 0, 0]);
        assert!(st.trail.is_empty() && !st.recording);
        // A try kept outside any other leaves its words and no trail.
        let mut alone = Attempt::begin(&mut st, true);
        assert!(alone.touch(2, 3));
        alone.words[2] = 9;
        alone.keep();
        assert_eq!(st.words, [0, 0, 9]);
        assert!(st.trail.is_empty() && !st.recording);
    }
}
