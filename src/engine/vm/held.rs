//! The macros through which the interpreter's loop reaches the stack it
//! holds (`lp` at the running frame's locals, `sp` past the top) and its
//! next instruction (`ip`): defined by [`held_stack`] inside the loop's
//! function, over the locals it names (macros name no local of their own).

/// Defines, inside the loop's function, the macros that reach the held
/// stack and the instruction pointer through the locals `$st` (the
/// state), `$ip`, `$sp` and `$lp`; `$d` is a `$` token, for the defined
/// macros' own arguments.
#[rustfmt::skip] // rustfmt misreads the `$d` tokens (and moves them on each run).
macro_rules! held_stack {
    ($d:tt $st:ident $ip:ident $sp:ident $lp:ident) => {
        // Holds the stack from `base` (the running frame's locals) on:
        // `lp` there, `sp` past the top, the vector cut to the base.
        macro_rules! hold {
            ($d base:expr) => {{
                let base: usize = $d base;
                let s = &mut $st.vm.stack;
                // Calls out of the loop never pop a frame's locals (`verify`).
                assert!(base <= s.len(), "locals popped out of the loop");
                let p = s.as_mut_ptr();
                $sp = p.wrapping_add(s.len());
                $lp = p.wrapping_add(base);
                unsafe { s.set_len(base) }; // Safety: `base` is within the length.
            }};
        }
        macro_rules! release {
            () => {{
                // Safety: the values from the vector's start to `sp` are set: those
                // below the base were left alone, the loop keeps those above it.
                // The base is not kept: it is where `lp` stands in the buffer.
                unsafe {
                    $st.vm
                        .stack
                        .set_len($sp.offset_from($st.vm.stack.as_ptr()) as usize)
                };
            }};
        }
        // The running frame's base (where `lp` stands in the buffer).
        macro_rules! frame_base {
            () => {
                // Safety: `lp` points into the buffer (see `hold!`).
                unsafe { $lp.offset_from($st.vm.stack.as_ptr()) as usize }
            };
        }
        // The index of the next instruction.
        macro_rules! pc {
            () => {
                ($ip as usize - $st.vm.code) / std::mem::size_of::<$crate::ir::bytecode::Op>()
            };
        }
        // Moves on past `k` instructions of a fused sequence.
        macro_rules! skip {
            ($d k:expr) => {{
                let k: usize = $d k;
                // Safety: `verify` proved a fused instruction goes on in its function.
                $ip = unsafe { $ip.add(k) }
            }};
        }
        // The stack without checks. Safety, for every macro below: `verify`
        // proved the height of the stack before each instruction of the
        // running function (never below its locals) and its greatest height;
        // when the frame was entered or resumed, `frame::fits` checked that the
        // stack stands at that height and has room for the greatest, and
        // `hold!` pointed `lp` at its locals and `sp` at its top; each
        // instruction moves `sp` as proved. So a push has room, a pop or a read
        // of the top has an operand above the locals, and a local's index is
        // below the height.
        macro_rules! push {
            ($d v:expr) => {{
                let v = $d v;
                // Safety: room for the proven greatest height (see above).
                unsafe {
                    $sp.write(v);
                    $sp = $sp.add(1);
                }
            }};
        }
        macro_rules! pop {
            () => {{
                debug_assert!($sp > $lp);
                // Safety: an operand lies above the locals (see above), moved out.
                unsafe {
                    $sp = $sp.sub(1);
                    $sp.read()
                }
            }};
        }
        // The value `k` places below the top (0: the top).
        macro_rules! top {
            ($d k:expr) => {{
                // Safety: the operands lie above the locals (see above).
                unsafe { &*$sp.sub(1 + $d k) }
            }};
        }
        macro_rules! top_mut {
            () => {{
                // Safety: the operand lies above the locals (see above).
                unsafe { &mut *$sp.sub(1) }
            }};
        }
        macro_rules! local {
            ($d l:expr) => {{
                debug_assert!($lp.wrapping_add($d l as usize) < $sp);
                // Safety: a local's index is below the height (see above).
                unsafe { &*$lp.add($d l as usize) }
            }};
        }
        macro_rules! set_local {
            ($d l:expr, $d v:expr) => {{
                let v = $d v;
                debug_assert!($lp.wrapping_add($d l as usize) < $sp);
                // Safety: a local's index is below the height (see above).
                unsafe { *$lp.add($d l as usize) = v }
            }};
        }
        // The locals and operands of the running frame, as a slice.
        macro_rules! frame_values {
            () => {
                // Safety: the values from `lp` to `sp` are set (see above).
                unsafe { std::slice::from_raw_parts_mut($lp, $sp.offset_from($lp) as usize) }
            };
        }
        macro_rules! pop_i {
            () => {
                pop!().int()
            };
        }
    };
}
pub(super) use held_stack;
