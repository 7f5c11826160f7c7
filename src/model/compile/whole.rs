//! Which light arms can be judged on the whole set of their options: the
//! light try left after the screened requirements is requirements with a
//! native form on a whole board (`groups_around(x, cells, marked) cmp n`,
//! counted for every cell at once by one flood of each group), then
//! `legal;`. A full listing of such an arm's options then runs nothing
//! (`engine::legality::whole`); the look-ahead, asking about a few options,
//! judges them one by one the same way, without running their prefixes.

use crate::ir::bytecode::{BinaryOp, Op};
use crate::ir::ruleset::{GroupsReq, SetAt, VarDef, WholeArm};

/// The whole-set form of the light try of an arm, starting at `start` in
/// `code` (not fused yet), the option's value held in local `bind`; the
/// locals from `first_slot` on are the arm's own (set by its body, not
/// read here). `None` when the try is anything else.
pub(super) fn whole_arm(
    code: &[Op],
    start: usize,
    (bind, first_slot): (u16, u16),
    vars: &[VarDef],
) -> Option<Box<WholeArm>> {
    let operand = |op: &Op| match *op {
        Op::Load(l) if l != bind && l < first_slot => Some(SetAt::Local(l)),
        Op::LoadVar(v) => vars
            .get(v as usize)
            .filter(|vd| vd.dims.is_empty() && matches!(vd.ty, crate::ir::ruleset::Ty::Set(_)))
            .map(|_| SetAt::Var(v)),
        _ => None,
    };
    let mut reqs = Vec::new();
    let mut at = start;
    loop {
        match code.get(at..)? {
            [Op::Legal(m), ..] if !reqs.is_empty() => {
                return Some(Box::new(WholeArm { reqs, legal: *m }));
            }
            [Op::Load(x), cells, marked, Op::GroupsAround(kind, given), Op::Const(bound), Op::Bin(cmp), Op::Require(msg), ..]
                if *x == bind && is_comparison(*cmp) =>
            {
                let marked = match (given, marked) {
                    (true, m) => Some(operand(m)?),
                    (false, Op::SetMake(_, 0)) => None,
                    _ => return None,
                };
                reqs.push(GroupsReq {
                    kind: *kind,
                    cells: operand(cells)?,
                    marked,
                    cmp: *cmp,
                    bound: *bound,
                    msg: *msg,
                });
                at += 7;
            }
            _ => return None,
        }
    }
}

/// Whether an operator compares two numbers.
fn is_comparison(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(op, Eq | Ne | Lt | Le | Gt | Ge)
}
