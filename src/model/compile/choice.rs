//! `choose`: offering options, waiting for the decision, running the
//! chosen arm; and what the engine learns about each arm to try options
//! cheaply: requirements screened on whole sets, light arms decided by a
//! pure prefix ending at `legal;`, quick arms, names that may clash.

use std::sync::Arc;

use crate::ir::bytecode::{BinaryOp, KindId, Op};
use crate::ir::codes::Code;
use crate::ir::diag::{thousands, Diagnostic};
use crate::ir::ruleset::{ArmDef, ChoiceDef, Kind, LightArm, Ty, MAX_OPTIONS, PLAYER};
use crate::ir::span::Span;
use crate::lang::ast::*;

use super::builtins;
use super::context::FnCtx;
use super::{Compiler, ANY_KIND};
use crate::model::limits::MAX_LIST;

/// A requirement a per-element arm starts with, and its message.
type Screen<'a> = (&'a Expr, String);

impl Compiler<'_> {
    /// `choose "prompt" by p { arms }`.
    pub(super) fn choose(&mut self, f: &mut FnCtx, ch: &Choose, sp: Span) {
        if !f.is_proc {
            self.err(
                Code::ImpureFunction,
                sp,
                "a function cannot ask for a decision",
                "use a `proc`",
            );
        }
        if ch.arms.len() > MAX_LIST {
            self.err(
                Code::TooLarge,
                sp,
                format!(
                    "a choice of {} arms: more than {}",
                    thousands(ch.arms.len()),
                    thousands(MAX_LIST)
                ),
                "offer many options with one arm over a kind, a set or a range \
                 (docs/LANGUAGE.md, Limits)",
            );
            return;
        }
        // A deciding player held in a local is read there (collecting the
        // options assigns no local); another is computed into a temporary.
        let named = match &ch.by.kind {
            ExprKind::Name(id) => f.lookup(&id.name).map(|l| (l.slot, l.ty.clone())),
            _ => None,
        };
        let (who, t) = match named {
            Some(local) => local,
            None => {
                let who = f.temp();
                let t = self.expr(f, &ch.by);
                f.emit(Op::Store(who), sp);
                (who, t)
            }
        };
        self.expect(&Ty::Ent(PLAYER), &t, ch.by.span, "the deciding player");
        f.emit(Op::ChooseBegin, sp);
        // The id the choice gets below (collecting options asks nothing).
        let choice_id = self.choices.len() as u32;
        let mut arms = self.offer_options(f, ch, choice_id);
        self.choices.push(ChoiceDef {
            prompt: ch.prompt.clone().unwrap_or_else(|| "choose".into()),
            arms: Vec::new(),
            span: sp,
            names_may_clash: true,
            legal_untried: false,
        });
        f.emit(Op::Load(who), sp);
        f.emit(Op::ChooseWait(choice_id), sp);
        self.run_chosen_arm(f, ch, &mut arms, sp);
        // Known once the bodies are compiled (nested choices come first).
        let choice = &mut self.choices[choice_id as usize];
        choice.names_may_clash = names_may_clash(&arms, self.kinds);
        choice.arms = arms;
    }

    /// Emits the collection of every arm's options; returns the arms as
    /// the engine sees them so far.
    fn offer_options(&mut self, f: &mut FnCtx, ch: &Choose, choice: u32) -> Vec<ArmDef> {
        let mut arms = Vec::new();
        let mut seen: Vec<(String, Span)> = Vec::new();
        for (i, arm) in ch.arms.iter().enumerate() {
            let i = i as u16;
            if let ArmKind::Each(b) = &arm.kind {
                self.check_option_count(b);
            }
            let def = match &arm.kind {
                ArmKind::Named(name, cond) => {
                    self.offer_named(f, arm, i, name, cond.as_ref(), &mut seen)
                }
                ArmKind::Each(b) if b.filter.is_none() => {
                    let screen = self.leading_requires(arm);
                    let (ty, screen) = self.add_every_option(f, b, i, &screen, choice);
                    arm_def(None, ty, screen)
                }
                ArmKind::Each(b) => arm_def(None, self.offer_filtered(f, arm, b, i), Vec::new()),
            };
            arms.push(def);
        }
        arms
    }

    /// Reports a per-element arm over a range written with constant
    /// bounds that holds more numbers than a decision may offer
    /// ([`MAX_OPTIONS`]; other ranges are checked while playing).
    fn check_option_count(&mut self, b: &Binder) {
        let Source::Range(lo, hi, incl) = &b.source else {
            return;
        };
        let (Some(lo), Some(hi)) = (constant(lo), constant(hi)) else {
            return;
        };
        let n = hi as i128 - lo as i128 + *incl as i128;
        if n > MAX_OPTIONS as i128 {
            self.diags.push(
                Diagnostic::new(
                    Code::TooLarge,
                    b.span,
                    format!(
                        "a choice of {} numbers: more than the {} options a decision may offer",
                        thousands(n),
                        thousands(MAX_OPTIONS)
                    ),
                )
                .label("too many options")
                .help("offer a smaller range, or choose in steps (first the thousands, then the rest)"),
            );
        }
    }

    /// A named option, offered when its condition holds.
    fn offer_named(
        &mut self,
        f: &mut FnCtx,
        arm: &Arm,
        i: u16,
        name: &Ident,
        cond: Option<&Expr>,
        seen: &mut Vec<(String, Span)>,
    ) -> ArmDef {
        if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name.name) {
            let first = *first;
            self.diags.push(
                Diagnostic::new(
                    Code::DuplicateOption,
                    name.span,
                    format!("option `{}` is offered twice", name.name),
                )
                .note(first, "first offered here")
                .help("give each option of a choice its own name"),
            );
        }
        seen.push((name.name.clone(), name.span));
        let skip = match cond {
            Some(c) => self.branch(f, c, false, c.span),
            None => Vec::new(),
        };
        f.emit(Op::Const(0), arm.span);
        f.emit(Op::ChooseAdd(i), arm.span);
        for j in skip {
            f.patch_here(j);
        }
        arm_def(Some(Arc::from(name.name.as_str())), Ty::Void, Vec::new())
    }

    /// The options of a per-element arm with a filter: as one set when the
    /// engine applies the filter natively (in the same order), else one by
    /// one. Returns the options' type.
    fn offer_filtered(&mut self, f: &mut FnCtx, arm: &Arm, b: &Binder, i: u16) -> Ty {
        self.scoped(f, |c, f| match c.native_selection(f, b) {
            Some(set) => {
                f.emit(Op::ChooseAddSet(i), arm.span);
                match set {
                    Ty::Set(k) => Ty::Ent(k),
                    _ => Ty::Error,
                }
            }
            None => c.binder_loop(f, b, false, |_c, f, var| {
                f.emit(Op::Load(var), arm.span);
                f.emit(Op::ChooseAdd(i), arm.span);
            }),
        })
    }

    /// Offers every element of an unfiltered source (`x in kind`,
    /// `x in set`, `x in lo..hi`) as an option of arm `arm`, in one
    /// instruction; returns the elements' type and the messages of the
    /// arm's leading requirements checked on the whole set (see
    /// [`Compiler::screen_sets`]).
    fn add_every_option(
        &mut self,
        f: &mut FnCtx,
        b: &Binder,
        arm: u16,
        screen: &[Screen],
        choice: u32,
    ) -> (Ty, Vec<u32>) {
        let sp = b.span;
        let e = match &b.source {
            Source::Expr(e) => e,
            Source::Range(lo, hi, incl) => {
                if let Some(msgs) = self.screen_range(f, b, arm, screen, choice) {
                    return (Ty::Int, msgs);
                }
                self.range_bounds(f, lo, hi, *incl, sp);
                f.emit(Op::ChooseAddRange(arm), sp);
                return (Ty::Int, Vec::new());
            }
        };
        let kind = self.kind_source(f, e);
        if let Some(k) = kind.filter(|_| screen.is_empty()) {
            f.emit(Op::KindSize(k), sp);
            f.emit(Op::Const(0), sp);
            f.emit(Op::ChooseAddRange(arm), sp);
            return (Ty::Ent(k), Vec::new());
        }
        let k = match kind {
            Some(k) => {
                f.emit(Op::SetAll(k), sp);
                k
            }
            None => self.set_source(f, e),
        };
        let msgs = self.screen_sets(f, b, k, screen);
        if msgs.is_empty() {
            f.emit(Op::ChooseAddSet(arm), sp);
        } else {
            f.emit(Op::ChooseAddScreened { choice, arm }, sp);
        }
        let ty = if k == ANY_KIND { Ty::Error } else { Ty::Ent(k) };
        (ty, msgs)
    }

    /// Offers the numbers of a range of constant bounds, not empty and
    /// from 0 on, as a set screened by the arm's leading requirements that
    /// have a native form on numbers (see [`Compiler::range_filter_plan`]),
    /// when the first has one; returns their messages (`None`, nothing
    /// emitted, otherwise).
    fn screen_range(
        &mut self,
        f: &mut FnCtx,
        b: &Binder,
        arm: u16,
        screen: &[Screen],
        choice: u32,
    ) -> Option<Vec<u32>> {
        let Source::Range(lo, hi, incl) = &b.source else {
            return None;
        };
        let (lo, end) = (constant(lo)?, constant(hi)?.checked_add(i64::from(*incl))?);
        if lo < 0 || end <= lo || end > MAX_OPTIONS as i64 {
            return None;
        }
        let x = &b.var.name;
        let (first, _) = screen.first()?;
        self.range_filter_plan(f, first, x, end)?;
        f.emit(Op::Const(end), b.span);
        f.emit(Op::Const(lo), b.span);
        f.emit(Op::SetRange, b.span);
        let mut msgs = Vec::new();
        // At most eight (what `ChooseAddScreened` follows).
        for (cond, text) in screen.iter().take(8) {
            let Some(plan) = self.range_filter_plan(f, cond, x, end) else {
                break;
            };
            f.emit(Op::Dup, cond.span);
            self.emit_filter(f, &plan);
            msgs.push(self.message(text, cond.span));
        }
        f.emit(Op::ChooseAddScreened { choice, arm }, b.span);
        Some(msgs)
    }

    /// With the candidate set of a per-element arm on the stack, pushes
    /// for each leading requirement, while one has a native form on a set
    /// (see `Filter`), the members still passing it: returns the messages
    /// of the requirements so screened.
    fn screen_sets(&mut self, f: &mut FnCtx, b: &Binder, k: KindId, screen: &[Screen]) -> Vec<u32> {
        let mut msgs = Vec::new();
        // At most eight (what `ChooseAddScreened` follows).
        for (cond, text) in screen.iter().take(8) {
            let Some(plan) = self.filter_plan(f, cond, &b.var.name, k) else {
                break;
            };
            f.emit(Op::Dup, cond.span);
            self.emit_filter(f, &plan);
            msgs.push(self.message(text, cond.span));
        }
        msgs
    }

    /// The requirements a per-element arm starts with, with their
    /// messages: those that can be checked on whole sets are checked
    /// while the options are collected (see [`Compiler::add_every_option`]).
    /// Conditions that draw random numbers are left to the arm.
    fn leading_requires<'a>(&self, arm: &'a Arm) -> Vec<Screen<'a>> {
        let mut out = Vec::new();
        for s in &arm.body.stmts {
            let StmtKind::Require(c, msg) = &s.kind else {
                break;
            };
            if draws_random(c) {
                break;
            }
            let text = msg
                .clone()
                .unwrap_or_else(|| format!("requires {}", self.diags.sources.slice(c.span)));
            out.push((c, text));
        }
        out
    }

    /// Waits for the decision, then runs the chosen arm's body.
    fn run_chosen_arm(&mut self, f: &mut FnCtx, ch: &Choose, arms: &mut [ArmDef], sp: Span) {
        let arm_slot = f.temp();
        let val_slot = f.temp();
        f.emit(Op::Store(arm_slot), sp);
        f.emit(Op::Store(val_slot), sp);
        let mut ends = Vec::new();
        // The last arm is the chosen one when the others are not (the
        // engine resumes only with an arm of the choice): it is neither
        // tested nor jumped out of.
        let last = ch.arms.len().saturating_sub(1);
        for (i, arm) in ch.arms.iter().enumerate() {
            if i == last {
                self.arm_body(f, arm, &mut arms[i], val_slot);
                break;
            }
            f.emit(Op::Load(arm_slot), arm.span);
            f.emit(Op::Const(i as i64), arm.span);
            f.emit(Op::Bin(BinaryOp::Eq), arm.span);
            let next = f.emit(Op::JumpIfNot(0), arm.span);
            self.arm_body(f, arm, &mut arms[i], val_slot);
            ends.push(f.emit(Op::Jump(0), arm.span));
            f.patch_here(next);
        }
        for e in ends {
            f.patch_here(e);
        }
    }

    /// Compiles what happens when an option of `arm` is chosen (its value
    /// in local `val_slot`), and learns from the code whether the arm is
    /// light (see [`decided_prefix`]) or quick.
    fn arm_body(&mut self, f: &mut FnCtx, arm: &Arm, def: &mut ArmDef, val_slot: u16) {
        self.scoped(f, |c, f| {
            let first_slot = f.nlocals;
            let mut bind = None;
            if let ArmKind::Each(b) = &arm.kind {
                // The option's value is named where it was stored: no copy.
                f.alias(&b.var.name, def.ty.clone(), val_slot);
                bind = Some(val_slot);
            }
            let body = f.here() as usize;
            // The requirements checked while the options were collected
            // stay in the body (a full run checks them again), but a light
            // try, only made of options that passed them, starts after them.
            let screened = def.screen.len();
            let mut after_screen = body;
            for (k, s) in arm.body.stmts.iter().enumerate() {
                c.stmt(f, s);
                if k + 1 == screened {
                    after_screen = f.here() as usize;
                }
            }
            let sigs = c.sigs;
            let is_fn = |fid: u32| sigs.get(fid as usize).is_some_and(|s| !s.is_proc);
            def.light =
                decided_prefix(&f.code, body, (first_slot, bind), is_fn).map(|_| LightArm {
                    start: after_screen as u32,
                    bind,
                });
            def.whole = match (def.light, bind) {
                (Some(_), Some(bind)) => {
                    super::whole::whole_arm(&f.code, after_screen, (bind, first_slot), c.vars)
                }
                _ => None,
            };
            def.quick =
                matches!(&arm.kind, ArmKind::Named(_, None)) && asks_nothing(&f.code[body..]);
        });
    }
}

/// An arm as the engine sees it before its body is compiled.
fn arm_def(name: Option<Arc<str>>, ty: Ty, screen: Vec<u32>) -> ArmDef {
    ArmDef {
        name,
        ty,
        quick: false,
        light: None,
        screen,
        whole: None,
    }
}

/// The value of an integer written out (`12`, `-3`), if `e` is one.
fn constant(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Neg(x) => constant(x).map(i64::saturating_neg),
        _ => None,
    }
}

/// Whether code calls nothing and asks nothing (the body of a `pass`, a
/// `done`).
fn asks_nothing(code: &[Op]) -> bool {
    !code
        .iter()
        .any(|op| matches!(op, Op::Call(..) | Op::CallDyn(_) | Op::ChooseWait(_)))
}

/// Whether an expression calls a builtin that draws random numbers
/// (anywhere in it).
fn draws_random(e: &Expr) -> bool {
    let c = draws_random;
    match &e.kind {
        ExprKind::Call(n, args) => builtins::is_random(&n.name) || args.iter().any(c),
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::Name(_) => false,
        ExprKind::Field(b, _) | ExprKind::Neg(b) | ExprKind::Not(b) => c(b),
        ExprKind::Index(b, idx) => c(b) || idx.iter().any(c),
        ExprKind::SetLit(args) => args.iter().any(c),
        ExprKind::Binary(_, a, b) => c(a) || c(b),
        ExprKind::Cond(a, b, d) => c(a) || c(b) || c(d),
        ExprKind::SetBuild(b) | ExprKind::Aggregate(_, b, _) => {
            let body = match &e.kind {
                ExprKind::Aggregate(_, _, Some(x)) => c(x),
                _ => false,
            };
            body || b.filter.as_ref().is_some_and(c)
                || match &b.source {
                    Source::Range(lo, hi, _) => c(lo) || c(hi),
                    Source::Expr(x) => c(x),
                }
        }
    }
}

/// Whether two options of a choice with these arms may show the same name
/// (checked when the choice is reached). One arm never offers a value
/// twice (it ranges over a kind, a set or a range), and named arms are
/// distinct identifiers; so a clash needs two per-element arms, or a named
/// arm spelled like an item its per-element arm may offer.
fn names_may_clash(arms: &[ArmDef], kinds: &[Kind]) -> bool {
    let each: Vec<&Ty> = arms
        .iter()
        .filter(|a| a.name.is_none())
        .map(|a| &a.ty)
        .collect();
    let [ty] = each.as_slice() else {
        return each.len() > 1;
    };
    let named = arms.iter().filter_map(|a| a.name.as_deref());
    match ty {
        // Identifiers are never numbers, `true` or `false`.
        Ty::Int | Ty::Bool => false,
        Ty::Ent(k) => {
            let items = &kinds[*k as usize].items;
            named.into_iter().any(|n| {
                n == "none" || items.iter().any(|i| i == n) || (*k == PLAYER && n.starts_with('p'))
            })
        }
        _ => named.count() > 0,
    }
}

/// Whether the code of an arm, from `body`, is decided by a pure prefix:
/// it reaches a `legal;` (whose index is returned) along every path that
/// does not fail, reading the state but writing only locals of the arm
/// (slots from `first_slot` on, and `bind`, the one holding the option's
/// value), calling no procedure (functions cannot
/// change the state) and drawing no random number. Such an arm can be
/// tried without preparing an undo.
fn decided_prefix(
    code: &[Op],
    body: usize,
    (first_slot, bind): (u16, Option<u16>),
    is_fn: impl Fn(u32) -> bool,
) -> Option<usize> {
    let end = body
        + code[body..]
            .iter()
            .position(|op| matches!(op, Op::Legal(_)))?;
    let inside = |t: &u32| (body..=end).contains(&(*t as usize));
    let local = |l: &u16| *l >= first_slot || Some(*l) == bind;
    code[body..end]
        .iter()
        .all(|op| match op {
            Op::Jump(t) | Op::JumpIf(t) | Op::JumpIfNot(t) => inside(t),
            Op::Store(l) => local(l),
            Op::SetNext { set, cur, var } => local(set) && local(cur) && local(var),
            Op::Builtin(b, _) => !builtins::draws_random(*b),
            Op::Call(fid, _) => is_fn(*fid),
            op => reads_only(op),
        })
        .then_some(end)
}

/// Whether an instruction only reads the state and the stack (or refuses
/// the option being tried).
fn reads_only(op: &Op) -> bool {
    matches!(
        op,
        Op::Const(_)
            | Op::Load(_)
            | Op::LoadVar(_)
            | Op::Field(..)
            | Op::FieldIndex(..)
            | Op::ParamIndex(_)
            | Op::Bin(_)
            | Op::Neg
            | Op::Not
            | Op::Pop
            | Op::Dup
            | Op::KindSize(_)
            | Op::Nth(_)
            | Op::SetAll(_)
            | Op::SetMake(..)
            | Op::SetIn
            | Op::SetCount
            | Op::ListLen(_)
            | Op::ListIn(_)
            | Op::Adjacent(_)
            | Op::Toward(_)
            | Op::Connected(_)
            | Op::Components(_)
            | Op::GroupsAround(..)
            | Op::GridCell(_)
            | Op::RunLength(..)
            | Op::SelectEq(_)
            | Op::CountEq(_)
            | Op::MembersEq(_)
            | Op::MembersCmp(..)
            | Op::SetRange
            | Op::MembersFieldEq(..)
            | Op::FieldImage(..)
            | Op::Require(_)
            | Op::Fail(_)
    )
}
