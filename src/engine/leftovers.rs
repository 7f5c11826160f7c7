//! The buffers of a dropped state kept for the next fresh one on the
//! same thread (`State::new`), so that games played one after another
//! grow no buffer again.

use super::state::{clear_values, Spare, State, Vm};

/// The buffers of the last state dropped on this thread, emptied, for
/// the next fresh one: a game played after another grows no buffer again.
#[derive(Default)]
pub(super) struct Leftovers {
    pub(super) words: Vec<i64>,
    pub(super) vm: Vm,
    pub(super) trail: Vec<(u32, i64)>,
    pub(super) spare: Spare,
}

thread_local! {
    static LEFTOVERS: std::cell::Cell<Option<Leftovers>> = const { std::cell::Cell::new(None) };
}

impl Leftovers {
    /// The buffers kept, or new ones.
    pub(super) fn take() -> Leftovers {
        LEFTOVERS
            .try_with(|l| l.take())
            .ok()
            .flatten()
            .unwrap_or_default()
    }
}

impl Drop for State {
    /// Keeps the state's buffers, emptied, for the next fresh state (when
    /// none are kept yet); the words left in them are never read.
    fn drop(&mut self) {
        let _ = LEFTOVERS.try_with(|l| {
            let kept = l.take();
            if kept.is_some() {
                l.set(kept);
                return;
            }
            let mut vm = std::mem::take(&mut self.vm);
            clear_values(&mut vm.stack);
            vm.frames.clear();
            vm.options.clear();
            vm.screened.clear();
            let mut words = std::mem::take(&mut self.words);
            words.clear();
            let mut trail = std::mem::take(&mut self.trail);
            trail.clear();
            l.set(Some(Leftovers {
                words,
                vm,
                trail,
                spare: std::mem::take(&mut self.spare),
            }));
        });
    }
}
