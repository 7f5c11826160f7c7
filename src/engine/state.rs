//! The game state: a flat array of words laid out by the ruleset, the
//! seeded random generator, and the suspended game program.

use rand_core::SeedableRng;
use rand_pcg::Pcg64;

use crate::ir::bits::{self, Bits};
use crate::ir::bytecode::VarId;
use crate::ir::grid::{GridMemo, GroupLabels};
use crate::ir::ruleset::{Ruleset, Ty, VarDef, MAX_OPTIONS};

mod spare;
pub use spare::Spare;

/// A value on the interpreter's stack: 16 bytes.
///
/// A set is one pointer to a block of words from a per-thread pool (see
/// [`Bits`]), so a value stays 16 bytes whatever the size of the sets of
/// the ruleset, and making, copying or dropping a set takes a block from
/// the pool or gives one back rather than calling the allocator. Sets held
/// in place (a 40-byte value, 3 words in place) made every push, pop and
/// copy of the stack wider, and spilled sets of more than 192 members to
/// the heap at every make and drop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// Integers, booleans, items, players, procedure references.
    I(i64),
    /// A set, as bits.
    S(Bits),
}

impl Value {
    /// The integer (0 for a set).
    pub fn int(&self) -> i64 {
        match self {
            Value::I(v) => *v,
            Value::S(_) => 0,
        }
    }

    /// The set's bits (empty for an integer).
    pub fn bits(&self) -> &[u64] {
        match self {
            Value::S(b) => b,
            Value::I(_) => &[],
        }
    }
}

/// A call frame.
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    /// The function running.
    pub func: u32,
    /// The next instruction.
    pub pc: u32,
    /// Where its locals start on the stack.
    pub base: u32,
}

/// The suspended game program.
#[derive(Debug, Clone, Default)]
pub struct Vm {
    /// Locals and operands.
    pub stack: Vec<Value>,
    /// Call frames, innermost last.
    pub frames: Vec<Frame>,
    /// Options collected by the current `choose`.
    pub options: Vec<(u16, i64)>,
    /// What tells which options were refused while they were collected
    /// (see `Op::ChooseAddScreened`).
    pub screened: Screening,
    /// While the interpreter runs: where the running function's code
    /// starts (an address, neither read nor written by anything else).
    pub code: usize,
}

/// The options of a `choose` refused while they were collected, because
/// they break one of the requirements their arm starts with: kept as the
/// sets of members passing each requirement, and read only for the
/// options asked about.
#[derive(Debug, Clone, Default)]
pub struct Screening {
    arms: Vec<ScreenedArm>,
    /// The passing sets, `ArmDef::screen.len()` for each arm, in order.
    sets: Vec<Bits>,
}

/// The options `start..end`, of arm `arm` of choice `choice`, were
/// screened with the passing sets from `first` on. When `at` is not
/// [`LISTED`], they were kept unlisted: they stand at entry `at` of the
/// option list, and are the members of the set `sets[members]`.
#[derive(Debug, Clone, Copy)]
struct ScreenedArm {
    start: u32,
    end: u32,
    choice: u32,
    arm: u16,
    first: u32,
    at: u32,
    members: u32,
}

/// [`ScreenedArm::at`] of options listed.
const LISTED: u32 = u32::MAX;

/// The options of a screened arm kept as their set (see
/// [`Screening::add_unlisted`]).
pub struct Unlisted<'a> {
    /// The entry of the option list they stand at (which holds
    /// `(arm, 0)`).
    pub at: usize,
    /// The index of the first of them among the choice's options.
    pub start: usize,
    /// How many (at least one).
    pub count: usize,
    /// Their arm.
    pub arm: u16,
    /// Their values.
    pub members: &'a Bits,
}

impl Screening {
    /// Forgets everything (a new `choose`).
    pub fn clear(&mut self) {
        self.arms.clear();
        self.sets.clear();
    }

    /// Whether no arm was screened.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.arms.is_empty()
    }

    /// Records that the options `start..end` of an arm were screened
    /// with these passing sets (one per screened requirement).
    pub fn add(
        &mut self,
        (start, end): (usize, usize),
        (choice, arm): (u32, u16),
        sets: impl Iterator<Item = Bits>,
    ) {
        let first = self.sets.len() as u32;
        self.sets.extend(sets);
        self.arms.push(ScreenedArm {
            start: start as u32,
            end: end as u32,
            choice,
            arm,
            first,
            at: LISTED,
            members: 0,
        });
    }

    /// Records that the options `start..end` (at least one) of an arm,
    /// the members of the set `members`, stand unlisted at entry `at` of
    /// the option list, screened with these passing sets (as
    /// [`Screening::add`]).
    pub fn add_unlisted(
        &mut self,
        (start, end): (usize, usize),
        (choice, arm): (u32, u16),
        sets: impl Iterator<Item = Bits>,
        (at, members): (usize, Bits),
    ) {
        self.add((start, end), (choice, arm), sets);
        self.sets.push(members);
        let a = self.arms.last_mut().expect("just added");
        a.at = at as u32;
        a.members = self.sets.len() as u32 - 1;
    }

    /// The options kept unlisted, in order.
    #[inline]
    pub fn unlisted(&self) -> impl DoubleEndedIterator<Item = Unlisted<'_>> + '_ {
        self.unlisted_arms().map(|a| Unlisted {
            at: a.at as usize,
            start: a.start as usize,
            count: (a.end - a.start) as usize,
            arm: a.arm,
            members: &self.sets[a.members as usize],
        })
    }

    /// Forgets that options were kept unlisted (they were listed): the
    /// screening is then the one made had they been listed at once.
    fn forget_unlisted(&mut self) {
        // The members' sets taken out from the last one down: each moves
        // the sets above it (of the arms after) one place down.
        for k in (0..self.arms.len()).rev() {
            let a = self.arms[k];
            if a.at == LISTED {
                continue;
            }
            self.sets.remove(a.members as usize);
            for b in &mut self.arms[k + 1..] {
                b.first -= 1;
            }
        }
        for a in &mut self.arms {
            a.at = LISTED;
            a.members = 0;
        }
    }

    /// The arms whose options were kept unlisted.
    #[inline]
    fn unlisted_arms(&self) -> impl DoubleEndedIterator<Item = &ScreenedArm> + '_ {
        self.arms.iter().filter(|a| a.at != LISTED)
    }

    /// How many options the unlisted sets hold beyond the one entry each
    /// takes in the option list.
    #[inline(never)]
    fn unlisted_extra(&self) -> usize {
        self.unlisted().map(|u| u.count - 1).sum()
    }

    /// How many options an option list of `entries` entries holds, the
    /// options kept unlisted (by this screening) counted one by one.
    #[inline]
    pub fn options_in(&self, entries: usize) -> usize {
        entries + self.unlisted_extra()
    }

    /// The arm the `i`-th option belongs to, the options screened with
    /// it, and the passing sets recorded for it (`None` when its arm was
    /// not screened).
    pub fn passing(&self, i: usize) -> Option<Passing<'_>> {
        let i = i as u32;
        let a = self.arms.iter().find(|a| a.start <= i && i < a.end)?;
        Some(Passing {
            at: (a.choice, a.arm),
            options: a.start as usize..a.end as usize,
            sets: &self.sets[a.first as usize..],
        })
    }
}

impl Vm {
    /// How many options the current `choose` collected so far, listed
    /// or not (see [`Screening::add_unlisted`]).
    #[inline]
    pub fn option_count(&self) -> usize {
        if self.screened.is_empty() {
            return self.options.len();
        }
        self.screened.options_in(self.options.len())
    }

    /// Whether the options collected so far leave no room for one more
    /// ([`MAX_OPTIONS`] at most).
    #[inline(always)]
    pub fn options_full(&self) -> bool {
        self.options.len() >= MAX_OPTIONS || (!self.screened.is_empty() && self.counted_full())
    }

    /// `options_full` when a screening is held: out of line, as the
    /// interpreter's loop would otherwise keep the screening's address.
    #[inline(never)]
    fn counted_full(&self) -> bool {
        self.option_count() >= MAX_OPTIONS
    }

    /// Adds an option to the list (see [`Vm::options`]); the list grows
    /// out of line, as the interpreter's loop would otherwise keep the
    /// list's address.
    #[inline(always)]
    pub fn push_option(&mut self, option: (u16, i64)) {
        if self.options.len() == self.options.capacity() {
            return self.push_option_growing(option);
        }
        self.options.push(option);
    }

    #[cold]
    #[inline(never)]
    fn push_option_growing(&mut self, option: (u16, i64)) {
        self.options.push(option);
    }

    /// Enters a frame (see [`Vm::frames`]); the frame stack grows out of
    /// line, as the interpreter's loop would otherwise keep its address.
    #[inline(always)]
    pub fn push_frame(&mut self, frame: Frame) {
        if self.frames.len() == self.frames.capacity() {
            return self.push_frame_growing(frame);
        }
        self.frames.push(frame);
    }

    #[cold]
    #[inline(never)]
    fn push_frame_growing(&mut self, frame: Frame) {
        self.frames.push(frame);
    }

    /// The `i`-th entry of the option list: the option there, or the first
    /// of the unlisted ones standing there.
    #[inline]
    pub fn first_option_at(&self, i: usize) -> (u16, i64) {
        match self.screened.unlisted().find(|u| u.at == i) {
            Some(u) => (u.arm, bits::next_from(u.members, 0).unwrap_or(0)),
            None => self.options[i],
        }
    }

    /// [`Vm::list_unlisted`] when one set only was kept unlisted, at the
    /// last entry of the list: its members take its place (`false`,
    /// nothing done, otherwise).
    #[inline]
    fn list_last_unlisted(&mut self) -> bool {
        let mut unlisted = self.screened.unlisted();
        let (Some(u), None) = (unlisted.next(), unlisted.next()) else {
            return false;
        };
        if u.at + 1 != self.options.len() {
            return false;
        }
        self.options.pop();
        bits::push_tagged(&mut self.options, u.arm, u.members);
        true
    }

    /// Lists the options kept unlisted, each at its place (the program is
    /// to be read by more than the look-ahead).
    pub fn list_unlisted(&mut self) {
        if self.screened.arms.iter().all(|a| a.at == LISTED) {
            return;
        }
        // Mostly one set, standing last: its members take its place in
        // the list as it is.
        if self.list_last_unlisted() {
            self.screened.forget_unlisted();
            return;
        }
        let mut all = Vec::with_capacity(self.option_count());
        {
            let mut unlisted = self.screened.unlisted().peekable();
            for (i, &option) in self.options.iter().enumerate() {
                match unlisted.next_if(|u| u.at == i) {
                    Some(u) => bits::push_tagged(&mut all, u.arm, u.members),
                    None => all.push(option),
                }
            }
        }
        self.options = all;
        self.screened.forget_unlisted();
    }
}

/// A screened arm, as [`Screening::passing`] finds it.
pub struct Passing<'a> {
    /// The arm, as `(choice, arm)`.
    pub at: (u32, u16),
    /// Its options (indices in the choice's).
    pub options: std::ops::Range<usize>,
    /// Its passing sets, from its first requirement on.
    pub sets: &'a [Bits],
}

/// Where the program stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Not started, or running.
    Running,
    /// Waiting for `player` to decide at decision point `choice`.
    Waiting {
        /// The decision point.
        choice: u32,
        /// Who decides.
        player: usize,
    },
    /// The game program has ended.
    Over,
}

/// The most words the trail of one try may keep (16 bytes each: 64 MiB):
/// an option whose run (with its look-ahead) writes more words of the
/// state is stopped with an error rather than kept in memory.
pub const MAX_TRAIL: usize = 1 << 22;

/// The whole state of a game.
#[derive(Debug, Clone)]
pub struct State {
    /// The state variables, laid out by the ruleset.
    pub words: Vec<i64>,
    /// The seeded random generator.
    pub rng: Pcg64,
    /// Seated players.
    pub nplayers: usize,
    /// The program.
    pub vm: Vm,
    /// Where the program stands.
    pub status: Status,
    /// While an option is being tried: the old value of every word written
    /// since, so that the try can be undone (tries are the legality
    /// module's: they set this and the next three fields, and put them
    /// back, however a try ends).
    pub trail: Vec<(u32, i64)>,
    /// Whether writes are being recorded in `trail` (an option is tried).
    pub recording: bool,
    /// Whether the option being tried stops at `legal;` (read only while
    /// `recording`). Off, every option is run to the next decision: the
    /// check that the rules' `legal;` statements tell the truth.
    pub cut_at_legal: bool,
    /// Whether the options of screened arms may be kept as their sets,
    /// unlisted (see [`Screening::add_unlisted`]): set while the
    /// look-ahead, which reads few of them, is what will read them.
    pub keep_unlisted: bool,
    /// Buffers reused by tries.
    pub spare: Spare,
    /// The steps the last run took, when it did not fail: its
    /// instructions, a list instruction weighing more on a long list.
    pub steps_run: u64,
    /// The groups of the last set of cells `groups_around` was asked
    /// about, labelled for the next questions on the same board (a copy
    /// of the state starts with none).
    pub groups: GroupLabels,
    /// The last answers of `adjacent` on a set and of `connected`, kept
    /// for the next same question (a copy of the state starts with none).
    pub grid: GridMemo,
}

/// Empties a program's buffers.
#[inline]
fn empty_vm(vm: &mut Vm) {
    clear_values(&mut vm.stack);
    vm.frames.clear();
    vm.options.clear();
    vm.screened.clear();
}

/// Sets `to` (empty) to a copy of `from`: the values are copied as they
/// lie, in one block, then each set among them is cloned over its copy
/// (one more holder of its block counted: see `ir::pool`), as cloning it
/// alone would (a stack holds mostly integers: cloning value by value
/// tested every one of them twice and wrote it field by field).
#[inline]
fn copy_values(from: &[Value], to: &mut Vec<Value>) {
    debug_assert!(to.is_empty());
    to.reserve(from.len());
    let dst = to.as_mut_ptr();
    // Safety: `to` has room for `from.len()` values and is apart from
    // `from`. Until `set_len`, the copies are not `to`'s: a set copied as
    // it lies holds its block uncounted, and is overwritten (without
    // being dropped) by a clone, counted, before `to` owns it.
    // If a copy panics, `to` stays empty and owns none of them (the sets
    // already copied leak; nothing is freed twice). Integers are plain
    // data. Nothing here depends on the rules being run.
    unsafe {
        std::ptr::copy_nonoverlapping(from.as_ptr(), dst, from.len());
        for_each_set(from, |k, bits| {
            std::ptr::write(dst.add(k), Value::S(bits.clone()));
        });
        to.set_len(from.len());
    }
}

/// Calls `f` on each set among `values`, with its index. A stack holds
/// mostly integers: its values are tested eight at a time, in one pass
/// with no branch per value, and only a piece of eight holding a set
/// value by value (testing each value on its own cost a compare and a
/// branch per value when a stack was copied or dropped); the last few
/// are tested one by one.
#[inline(always)]
fn for_each_set(values: &[Value], mut f: impl FnMut(usize, &Bits)) {
    let mut eights = values.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut eights {
        if holds_set(chunk) {
            for (k, v) in chunk.iter().enumerate() {
                if let Value::S(bits) = v {
                    f(at + k, bits);
                }
            }
        }
        at += 8;
    }
    for (k, v) in eights.remainder().iter().enumerate() {
        if let Value::S(bits) = v {
            f(at + k, bits);
        }
    }
}

/// Whether `values` holds a set (one pass, no branch per value).
#[inline(always)]
fn holds_set(values: &[Value]) -> bool {
    values
        .iter()
        .fold(false, |any, v| any | matches!(v, Value::S(_)))
}

/// Empties `values`, dropping the sets among them (the integers own
/// nothing and are forgotten at once), tested eight at a time as
/// [`for_each_set`] does.
#[inline]
fn clear_values(values: &mut Vec<Value>) {
    let n = values.len();
    // Safety: the vector forgets its values first (so that a panic
    // leaks rather than drops twice); each set among them is then dropped
    // once, through the slice, and never read again; integers need no
    // drop.
    unsafe {
        values.set_len(0);
        let all = std::slice::from_raw_parts_mut(values.as_mut_ptr(), n);
        let mut eights = all.chunks_exact_mut(8);
        for chunk in &mut eights {
            if holds_set(chunk) {
                drop_sets(chunk);
            }
        }
        drop_sets(eights.into_remainder());
    }
}

/// Drops the sets among `values`, which are forgotten by their owner.
///
/// # Safety
/// The values are not used again (the sets are left dropped).
#[inline(always)]
unsafe fn drop_sets(values: &mut [Value]) {
    for v in values {
        if matches!(v, Value::S(_)) {
            // Safety: dropped once; never used again (see above).
            unsafe { std::ptr::drop_in_place(v) };
        }
    }
}

/// The buffers of the last state dropped on this thread, emptied, for
/// the next fresh one: a game played after another grows no buffer again.
#[derive(Default)]
struct Leftovers {
    words: Vec<i64>,
    vm: Vm,
    trail: Vec<(u32, i64)>,
    spare: Spare,
}

thread_local! {
    static LEFTOVERS: std::cell::Cell<Option<Leftovers>> = const { std::cell::Cell::new(None) };
    /// Whether `LEFTOVERS` holds buffers: read by every drop, so that a
    /// drop finding them kept moves nothing.
    static KEPT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Leftovers {
    /// The buffers kept, or new ones.
    fn take() -> Leftovers {
        let _ = KEPT.try_with(|k| k.set(false));
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
        if KEPT.try_with(|k| k.replace(true)).unwrap_or(true) {
            return;
        }
        let _ = LEFTOVERS.try_with(|l| {
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

impl State {
    /// A fresh state with every variable at its type's zero, for
    /// `nplayers` players (within the ruleset's range: see
    /// [`crate::engine::Game::initial_state`], which checks it).
    pub(crate) fn new(rules: &Ruleset, nplayers: usize, seed: u64) -> State {
        let left = Leftovers::take();
        let mut words = left.words;
        words.resize(rules.state_words, 0);
        for v in &rules.vars {
            if matches!(v.ty, Ty::Ent(_) | Ty::Proc) {
                for w in &mut words[v.offset..v.offset + v.len()] {
                    *w = -1;
                }
            }
        }
        let mut st = State::of_words(words, nplayers, seed);
        (st.vm, st.trail, st.spare) = (left.vm, left.trail, left.spare);
        st
    }

    /// A state holding these words, with no program running yet.
    pub(crate) fn of_words(words: Vec<i64>, nplayers: usize, seed: u64) -> State {
        State {
            words,
            rng: Pcg64::seed_from_u64(seed),
            nplayers,
            vm: Vm::default(),
            status: Status::Running,
            trail: Vec::new(),
            recording: false,
            cut_at_legal: true,
            keep_unlisted: false,
            spare: Spare::default(),
            steps_run: 0,
            groups: GroupLabels::default(),
            grid: GridMemo::default(),
        }
    }

    /// A copy of the state as it stands, without any try in progress.
    pub fn snapshot(&self) -> State {
        State {
            words: self.words.clone(),
            rng: self.rng.clone(),
            nplayers: self.nplayers,
            vm: self.vm.clone(),
            status: self.status.clone(),
            trail: Vec::new(),
            recording: false,
            cut_at_legal: self.cut_at_legal,
            keep_unlisted: false,
            spare: Spare::default(),
            steps_run: 0,
            groups: GroupLabels::default(),
            grid: GridMemo::default(),
        }
    }

    /// Records the words `lo..hi` before they are written, when trying;
    /// `false` when the trail has grown past [`MAX_TRAIL`]: the writer must
    /// not write, and stop the try with an error.
    #[inline]
    #[must_use]
    pub fn touch(&mut self, lo: usize, hi: usize) -> bool {
        if self.recording {
            let n = hi.saturating_sub(lo);
            if self.trail.capacity().wrapping_sub(self.trail.len()) < n {
                return self.touch_growing(lo, hi);
            }
            self.trail
                .extend((lo..hi).map(|i| (i as u32, self.words[i])));
            return self.trail.len() <= MAX_TRAIL;
        }
        true
    }

    /// `touch` when the trail must grow: out of line, as the
    /// interpreter's loop would otherwise keep the trail's address.
    #[cold]
    #[inline(never)]
    fn touch_growing(&mut self, lo: usize, hi: usize) -> bool {
        self.trail
            .extend((lo..hi).map(|i| (i as u32, self.words[i])));
        self.trail.len() <= MAX_TRAIL
    }

    /// The words of element `flat` of a variable.
    pub fn elem(&self, v: &VarDef, flat: usize) -> &[i64] {
        let o = v.offset + flat * v.elem_words;
        &self.words[o..o + v.elem_words]
    }

    /// The player a pending decision belongs to.
    pub fn status_player(&self) -> Option<usize> {
        match self.status {
            Status::Waiting { player, .. } => Some(player),
            _ => None,
        }
    }

    /// Reads an integer element by its indices (for tools and tests).
    pub fn get(&self, rules: &Ruleset, var: VarId, idx: &[i64]) -> Option<i64> {
        let v = &rules.vars[var as usize];
        let flat = flat_index(v, idx)?;
        Some(self.words[v.offset + flat * v.elem_words])
    }

    /// A stable hash of the variables and the random generator.
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for w in &self.words {
            h ^= *w as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}

/// The flat element index of `idx` in a variable, if in range.
pub fn flat_index(v: &VarDef, idx: &[i64]) -> Option<usize> {
    if idx.len() != v.dims.len() {
        return None;
    }
    let mut flat = 0usize;
    for (i, d) in idx.iter().zip(&v.dims) {
        let k = i - d.lo;
        if k < 0 || k as usize >= d.size {
            return None;
        }
        flat = flat * d.size + k as usize;
    }
    Some(flat)
}

#[cfg(test)]
mod tests;
