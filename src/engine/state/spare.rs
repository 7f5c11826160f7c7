//! Buffers of earlier tries, reused (see [`Spare`]).

use super::{copy_values, empty_vm, Vm};

/// Buffers of earlier tries, reused so that trying an option allocates
/// nothing. A copy of a state starts with none.
///
/// Whole programs are kept, each with its four buffers, so that setting
/// a program aside or giving one back takes one buffer of the spares and
/// not four (one test for an empty list and one move each). Those of
/// tries are boxed: a try's program set aside, or kept, moves as one
/// pointer.
#[derive(Debug, Default)]
pub struct Spare {
    vms: Vec<Vm>,
    // Boxed on purpose: a box is given back and taken again as it is, and
    // its program moves as one pointer.
    #[allow(clippy::vec_box)]
    boxed: Vec<Box<Vm>>,
    words: Vec<Vec<(u32, i64)>>,
}

impl Clone for Spare {
    fn clone(&self) -> Spare {
        Spare::default()
    }
}

impl Spare {
    /// A program made of spare buffers holding a copy of `vm`'s stack and
    /// frames, and `vm`'s options and screening, moved (not copied): `vm`
    /// is left with empty ones from the same spare program.
    #[inline]
    pub fn set_aside(&mut self, vm: &mut Vm) -> Box<Vm> {
        let mut saved = self.boxed.pop().unwrap_or_default();
        copy_values(&vm.stack, &mut saved.stack);
        saved.frames.extend_from_slice(&vm.frames);
        std::mem::swap(&mut saved.options, &mut vm.options);
        std::mem::swap(&mut saved.screened, &mut vm.screened);
        saved
    }

    /// An empty list of written words.
    #[inline]
    pub fn words(&mut self) -> Vec<(u32, i64)> {
        self.words.pop().unwrap_or_default()
    }

    /// Takes a list of written words back for later use (emptied).
    #[inline]
    pub fn give_words(&mut self, mut words: Vec<(u32, i64)>) {
        words.clear();
        self.words.push(words);
    }

    /// An empty program made of spare buffers.
    #[inline]
    pub fn vm(&mut self) -> Vm {
        self.vms.pop().unwrap_or_default()
    }

    /// Takes a program's buffers back for later use (emptied).
    #[inline]
    pub fn give_vm(&mut self, mut vm: Vm) {
        empty_vm(&mut vm);
        self.vms.push(vm);
    }

    /// Takes a boxed program back for later use (emptied; see
    /// [`Spare::set_aside`]).
    #[inline]
    pub fn give_boxed(&mut self, mut vm: Box<Vm>) {
        empty_vm(&mut vm);
        self.boxed.push(vm);
    }
}
