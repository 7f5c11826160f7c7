//! Clean-ups of a finished function's code, before its instructions are
//! fused: every instruction keeps its index, so no jump needs renumbering.

use crate::ir::bytecode::Op;

/// How many jumps in a row a jump is followed through (a cycle of jumps,
/// an endless loop in the rules, stops there).
const MAX_HOPS: usize = 8;

/// Points every jump that lands on an unconditional `Jump` at where that
/// one goes, and turns a `Jump` to a `Ret` into the `Ret`: a path through
/// the code runs the same instructions but those jumps. Every endless loop
/// still goes through a taken jump (the step limit is checked there).
pub(super) fn thread_jumps(code: &mut [Op]) {
    for i in 0..code.len() {
        let (Op::Jump(t) | Op::JumpIf(t) | Op::JumpIfNot(t)) = code[i] else {
            continue;
        };
        let end = final_target(code, t);
        let to_ret = matches!(code.get(end as usize), Some(Op::Ret));
        match &mut code[i] {
            op @ Op::Jump(_) if to_ret => *op = Op::Ret,
            Op::Jump(t) | Op::JumpIf(t) | Op::JumpIfNot(t) => *t = end,
            _ => {}
        }
    }
}

/// Where a jump to `t` ends up after the unconditional jumps it meets.
fn final_target(code: &[Op], mut t: u32) -> u32 {
    for _ in 0..MAX_HOPS {
        match code.get(t as usize) {
            Some(Op::Jump(next)) if *next != t => t = *next,
            _ => break,
        }
    }
    t
}
