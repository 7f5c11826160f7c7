//! The storage of a bit set: one pointer to a block of words taken from,
//! and given back to, a per-thread pool of blocks sorted by size, shared
//! by the copies of a set until one of them is written.
//!
//! A set is made, copied and dropped at almost every set instruction of
//! the interpreter, and the stack copied for every option tried copies
//! the sets on it. Held in place, sets made every value as wide as the
//! largest set (and spilled to the heap past it); held behind one pointer
//! a value is 16 bytes whatever the set's size, and the blocks, recycled
//! through the pool, are never handed back to the allocator while the
//! thread plays. A copy shares its original's block (a count of its
//! holders kept in the block): copying a set, as loading a local set or
//! copying the stack for a try does, writes one word, and only a copy
//! written to takes a block of its own.
//!
//! The count is a plain word, not an atomic one: a set never leaves its
//! thread (`Bits` is neither `Send` nor `Sync`), so two copies are never
//! counted at once.

use std::alloc::{self, Layout};
use std::cell::Cell;
use std::ptr::NonNull;

/// Sizes of block (in words of the set) kept in the pool: larger sets go
/// to the allocator each time.
const POOLED: usize = 16;

/// The header of an empty set with no block (no room, one holder): never
/// written, never freed.
static EMPTY: [u64; HEADER] = [0, 1];

/// The words before a block's set: the length (low half) and the room
/// (high half), then how many sets hold the block.
const HEADER: usize = 2;

/// A set's bits, one per item index, in words of 64: a pointer to a block
/// whose first word holds the length (low half) and the room (high half),
/// whose second counts the sets holding it, followed by the words. Made,
/// copied and dropped through a per-thread pool of blocks, so the
/// interpreter's sets seldom touch the allocator; a copy shares the block
/// until it is written (its `DerefMut` copies a shared block first).
pub struct Bits {
    block: NonNull<u64>,
    /// The count of holders is not atomic: a set stays in its thread.
    _unsend: std::marker::PhantomData<*const u64>,
}

/// The free blocks of each size (index 0 unused), each a list threaded
/// through the blocks' first word: taking or giving a block back is two
/// moves of a pointer. It needs no destructor, so reaching it takes no
/// check; [`Emptier`] hands its blocks back when the thread ends.
struct Pool {
    free: [Cell<*mut u64>; POOLED + 1],
}

/// Hands the pool's blocks back to the allocator when its thread ends
/// (registered by the first block taken from the allocator; blocks given
/// back after it ran, by other destructors of the ending thread, are left).
struct Emptier;

impl Drop for Emptier {
    fn drop(&mut self) {
        let _ = POOL.try_with(|pool| {
            for (room, head) in pool.free.iter().enumerate() {
                let mut block = head.replace(std::ptr::null_mut());
                while !block.is_null() {
                    // Safety: every block in the list of size `room` was
                    // allocated with `layout(room)`, is owned by no set,
                    // and holds the next free block in its first word.
                    unsafe {
                        let next = *block as *mut u64;
                        alloc::dealloc(block.cast(), layout(room));
                        block = next;
                    }
                }
            }
        });
    }
}

thread_local! {
    static POOL: Pool = const {
        Pool { free: [const { Cell::new(std::ptr::null_mut()) }; POOLED + 1] }
    };
    static EMPTIER: Emptier = const { Emptier };
}

/// The layout of a block of `room` words (and its header).
#[inline]
fn layout(room: usize) -> Layout {
    Layout::array::<u64>(room + HEADER).expect("set size")
}

/// A block of `len` words (`len` > 0) with its header written: length
/// and room both `len`, one holder; the words are left for the caller to
/// write.
#[inline]
fn take_headed(len: usize) -> NonNull<u64> {
    let block = take(len);
    // Safety: a block taken has room for its header.
    unsafe {
        block.as_ptr().write(len as u64 | (len as u64) << 32);
        block.as_ptr().add(1).write(1);
    }
    block
}

/// A block with room for `room` words (at least one), its words not set.
#[inline]
fn take(room: usize) -> NonNull<u64> {
    if room <= POOLED {
        let reused = POOL.try_with(|p| {
            let head = p.free[room].get();
            if !head.is_null() {
                // Safety: a free block holds the next free one (or null)
                // in its first word.
                p.free[room].set(unsafe { *head } as *mut u64);
            }
            head
        });
        if let Some(block) = reused.ok().and_then(NonNull::new) {
            return block;
        }
    }
    allocate(room)
}

/// A block with room for `room` words from the allocator: out of line,
/// as the interpreter's loop would otherwise keep the address of the
/// thread's [`Emptier`].
#[cold]
#[inline(never)]
fn allocate(room: usize) -> NonNull<u64> {
    if room <= POOLED {
        // The pool will hold this block one day: empty it at the end.
        let _ = EMPTIER.try_with(|_| ());
    }
    let l = layout(room);
    // Safety: the layout is never zero-sized (a header word at least).
    let p = unsafe { alloc::alloc(l) }.cast::<u64>();
    NonNull::new(p).unwrap_or_else(|| alloc::handle_alloc_error(l))
}

/// Gives a block of `room` words back.
#[inline]
fn give(block: NonNull<u64>, room: usize) {
    if room <= POOLED {
        let kept = POOL.try_with(|p| {
            // Safety: the block is owned by nothing else any more; its
            // first word now links it to the next free block.
            unsafe { *block.as_ptr() = p.free[room].get() as u64 };
            p.free[room].set(block.as_ptr());
        });
        if kept.is_ok() {
            return;
        }
    }
    // Safety: the block was allocated with this layout and is owned by
    // nothing else any more.
    unsafe { alloc::dealloc(block.as_ptr().cast(), layout(room)) };
}

/// Copies `len` words, as fixed-size moves for the common sizes (rather
/// than a call to the library's copy).
///
/// Safety: `from` readable and `to` writable for `len` words, apart.
#[inline(always)]
unsafe fn copy_words(from: *const u64, to: *mut u64, len: usize) {
    use std::ptr::copy_nonoverlapping as cp;
    match len {
        1 => cp(from, to, 1),
        2 => cp(from, to, 2),
        3 => cp(from, to, 3),
        4 => cp(from, to, 4),
        5 => cp(from, to, 5),
        6 => cp(from, to, 6),
        7 => cp(from, to, 7),
        8 => cp(from, to, 8),
        _ => cp(from, to, len),
    }
}

impl Bits {
    /// The empty set, with no words (takes no block).
    #[inline]
    pub fn new() -> Bits {
        Bits::holding(NonNull::from(&EMPTY).cast())
    }

    /// The set of this block (one more holder, counted by the caller).
    #[inline]
    fn holding(block: NonNull<u64>) -> Bits {
        Bits {
            block,
            _unsend: std::marker::PhantomData,
        }
    }

    /// A set of `len` words, word `i` being `word(i)`.
    #[inline]
    fn build(len: usize, word: impl Fn(usize) -> u64) -> Bits {
        if len == 0 {
            return Bits::new();
        }
        let block = take_headed(len);
        // Safety: the block has room for a header and `len` words.
        unsafe {
            let p = block.as_ptr();
            for i in 0..len {
                p.add(HEADER + i).write(word(i));
            }
        }
        Bits::holding(block)
    }

    /// A set of `n` words, each `w`.
    #[inline]
    pub fn from_elem(w: u64, n: usize) -> Bits {
        Bits::build(n, |_| w)
    }

    /// A copy of these words in a block of its own (out of line: copies
    /// of values that are mostly integers, like the stack's, stay short).
    #[inline(never)]
    pub fn from_slice(from: &[u64]) -> Bits {
        let len = from.len();
        if len == 0 {
            return Bits::new();
        }
        let block = take_headed(len);
        // Safety: the block has room for a header and `len` words, and is
        // apart from `from`.
        unsafe { copy_words(from.as_ptr(), block.as_ptr().add(HEADER), len) };
        Bits::holding(block)
    }

    /// A set of `n` words, word `i` being `word(i)`.
    #[inline]
    pub fn from_fn(n: usize, word: impl Fn(usize) -> u64) -> Bits {
        Bits::build(n, word)
    }

    #[inline]
    fn header(&self) -> u64 {
        // Safety: the block's header is always initialised.
        unsafe { *self.block.as_ptr() }
    }

    /// The words held.
    #[inline]
    pub fn len(&self) -> usize {
        (self.header() & 0xffff_ffff) as usize
    }

    /// Whether no word is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The words the block has room for.
    #[inline]
    fn room(&self) -> usize {
        (self.header() >> 32) as usize
    }

    /// How many sets hold the block (1 for the empty header).
    #[inline]
    fn holders(&self) -> u64 {
        // Safety: the count is always initialised.
        unsafe { *self.block.as_ptr().add(1) }
    }

    /// Whether the set holds its block alone (writing it copies nothing).
    #[inline]
    pub fn is_alone(&self) -> bool {
        self.holders() == 1
    }

    /// The words, to write in place, when the set holds its block alone
    /// (`None` when it shares it: writing would copy it first).
    #[inline]
    pub fn alone_mut(&mut self) -> Option<&mut [u64]> {
        (self.holders() == 1).then(|| &mut self[..])
    }

    /// Gives the set a block of its own (a copy of the shared one).
    #[cold]
    #[inline(never)]
    fn unshare(&mut self) {
        *self = Bits::from_slice(self);
    }

    /// Makes the set `n` words long, new words being `w`.
    pub fn resize(&mut self, n: usize, w: u64) {
        let len = self.len();
        if n == len {
            return;
        }
        if n > self.room() || self.holders() > 1 {
            // A block of its own, the words kept copied once.
            let mut fresh = Bits::from_elem(w, n);
            let kept = len.min(n);
            fresh[..kept].copy_from_slice(&self[..kept]);
            *self = fresh;
            return;
        }
        if n > len {
            // Safety: `n` is within the room, so words `len..n` exist.
            unsafe {
                let words =
                    std::slice::from_raw_parts_mut(self.block.as_ptr().add(HEADER + len), n - len);
                words.fill(w);
            }
        }
        // A block with room (never the empty header), held by this set
        // alone: its own header.
        unsafe {
            self.block
                .as_ptr()
                .write(n as u64 | (self.room() as u64) << 32)
        };
    }
}

impl Default for Bits {
    fn default() -> Bits {
        Bits::new()
    }
}

impl Drop for Bits {
    #[inline]
    fn drop(&mut self) {
        let room = self.room();
        if room > 0 {
            let holders = self.holders();
            if holders > 1 {
                // Safety: a block with room is no static; the count is
                // this thread's alone (see `Bits`).
                unsafe { *self.block.as_ptr().add(1) = holders - 1 };
            } else {
                give(self.block, room);
            }
        }
    }
}

impl Clone for Bits {
    /// The same set, sharing the block (one more holder counted).
    #[inline]
    fn clone(&self) -> Bits {
        if self.room() == 0 {
            return Bits::new();
        }
        // Safety: a block with room is no static; the count is this
        // thread's alone (see `Bits`).
        unsafe { *self.block.as_ptr().add(1) = self.holders() + 1 };
        Bits::holding(self.block)
    }
}

impl std::ops::Deref for Bits {
    type Target = [u64];
    #[inline]
    fn deref(&self) -> &[u64] {
        // Safety: the block holds `len` initialised words after its header
        // (none for the empty header, whose pointer is still aligned).
        unsafe { std::slice::from_raw_parts(self.block.as_ptr().add(HEADER), self.len()) }
    }
}

impl std::ops::DerefMut for Bits {
    /// The words, to write: a block shared with copies is copied first,
    /// so that they do not see the writes.
    #[inline]
    fn deref_mut(&mut self) -> &mut [u64] {
        if self.holders() > 1 {
            self.unshare();
        }
        // Safety: as for `deref`; the set holds its block alone (an empty
        // slice for the shared empty header, so nothing is ever written).
        unsafe { std::slice::from_raw_parts_mut(self.block.as_ptr().add(HEADER), self.len()) }
    }
}

impl PartialEq for Bits {
    fn eq(&self, other: &Bits) -> bool {
        self[..] == other[..]
    }
}

impl Eq for Bits {}

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<u64> for Bits {
    fn from_iter<I: IntoIterator<Item = u64>>(iter: I) -> Bits {
        let words: Vec<u64> = iter.into_iter().collect();
        Bits::from_slice(&words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_copy_grow_and_recycle_their_blocks() {
        assert_eq!(std::mem::size_of::<Bits>(), 8);
        for n in [0usize, 1, 3, 4, 6, 17, 40] {
            let b: Bits = (0..n as u64).map(|w| w * 0x0101 + 1).collect();
            assert_eq!(b.len(), n);
            let c = b.clone();
            assert_eq!(c, b);
            let mut d = c.clone();
            d.resize(n + 2, 7);
            assert_eq!(&d[..n], &b[..]);
            assert_eq!(&d[n..], &[7, 7]);
            d.resize(1, 0);
            assert_eq!(d.len(), 1);
            d.resize(n + 1, 0);
            assert_eq!(d.len(), n + 1);
            // A copy shares the block until one of them is written.
            let mut e = b.clone();
            let f = e.clone();
            if n > 0 {
                e[0] ^= 1;
                assert_eq!(f, b);
                assert_ne!(e, b);
                assert_eq!(e[0], b[0] ^ 1);
            }
            drop(f);
            let mut g = b.clone();
            g.resize(n + 3, 9);
            assert_eq!(&g[..n], &b[..]);
            assert_eq!(b.len(), n);
        }
        assert!(Bits::new().is_empty());
        assert_eq!(&Bits::from_elem(0, 3)[..], &[0, 0, 0]);
    }
}
