//! Grid instructions: neighbours, connected regions, groups, cells by
//! coordinates (the geometry is `ir::grid`'s).

use super::sets::set_elems;
use crate::engine::state::Value;
use crate::ir::bits::{self, Bits};
use crate::ir::bytecode::Op;
use crate::ir::grid;
use crate::ir::ruleset::{Kind, Ruleset};

/// Runs a grid instruction on the operands on top of the stack.
#[inline(never)]
pub(super) fn instruction(rules: &Ruleset, stack: &mut Vec<Value>, op: &Op) {
    let pop_i = |stack: &mut Vec<Value>| stack.pop().map_or(0, |v| v.int());
    let out = match *op {
        Op::Adjacent(k) => {
            let of = stack.pop().expect("cell or set");
            Value::S(neighbours(&rules.kinds[k as usize], &of))
        }
        Op::Connected(k) => {
            let within = stack.pop().expect("set");
            let c = pop_i(stack);
            let kind = &rules.kinds[k as usize];
            Value::S(if c < 0 {
                bits::empty(0)
            } else {
                grid::connected(kind, c as usize, within.bits())
            })
        }
        Op::Components(k) => {
            let cells = stack.pop().expect("set");
            Value::I(grid::components(&rules.kinds[k as usize], cells.bits()))
        }
        Op::GroupsAround(k) => {
            let use_marked = pop_i(stack) != 0;
            let marked = stack.pop().expect("set");
            let cells = stack.pop().expect("set");
            let c = pop_i(stack);
            let kind = &rules.kinds[k as usize];
            Value::I(if c < 0 {
                0
            } else {
                let m = use_marked.then(|| marked.bits());
                grid::groups_around(kind, c as usize, cells.bits(), m)
            })
        }
        Op::GridCell(k) => {
            let y = pop_i(stack);
            let x = pop_i(stack);
            let g = rules.kinds[k as usize].grid.unwrap_or_default();
            let inside = (0..g.width as i64).contains(&x) && (0..g.height as i64).contains(&y);
            Value::I(if inside { y * g.width as i64 + x } else { -1 })
        }
        _ => unreachable!("not a grid instruction"),
    };
    stack.push(out);
}

/// The neighbours of a cell, or of any cell of a set (`adjacent`).
#[inline(never)]
fn neighbours(kind: &Kind, of: &Value) -> Bits {
    let mut bits = bits::empty(kind.items.len());
    let words: &mut [u64] = &mut bits;
    let mut add = |c: i64| {
        for n in kind.adjacent.get(c as usize).map_or(&[][..], Vec::as_slice) {
            // A neighbour is an item of the kind: within the set.
            words[*n as usize / 64] |= 1 << (n % 64);
        }
    };
    match of {
        Value::I(c) if *c >= 0 => add(*c),
        Value::I(_) => {}
        Value::S(cells) => set_elems(cells).for_each(add),
    }
    bits
}
