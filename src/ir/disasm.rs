//! Compiled code as readable text: one instruction per line with its
//! index, jump targets marked, and variables, kinds, fields, parameters,
//! functions, choices and messages named through the ruleset.
//!
//! `tabula check RULESET --dump FN` prints it; the compiler's snapshot
//! tests pin it.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::ir::bytecode::{Func, KindId, Op, VarId};
use crate::ir::ruleset::{Ruleset, Ty};
use crate::ir::symbols::Global;

/// Renders a function: a header (name, parameters, locals), then one line
/// per instruction. A line that a jump lands on is marked with `>`. A
/// fused instruction (see [`crate::ir::bytecode::fuse`]) is shown as the
/// instruction it was written over, the fused form beside it.
pub fn disassemble(rules: &Ruleset, func: &Func) -> String {
    let names = Names(rules);
    let mut out = String::new();
    let _ = writeln!(out, "{}", header(rules, func));
    let targets = jump_targets(&func.code);
    let width = func.code.len().saturating_sub(1).to_string().len();
    for (i, op) in func.code.iter().enumerate() {
        let mark = if targets.contains(&(i as u32)) {
            '>'
        } else {
            ' '
        };
        let line = match unfused(op) {
            Some(first) => format!("{:<32} fused: {}", names.op(&first), names.op(op)),
            None => names.op(op),
        };
        let _ = writeln!(out, "{mark}{i:>width$}  {line}");
    }
    out
}

/// The instruction a fused one was written over (`None` for one not fused).
fn unfused(op: &Op) -> Option<Op> {
    Some(match op {
        Op::BinK(_, k) | Op::BinKJumpIfNot(_, k, _) => Op::Const(*k),
        Op::LoadBinK(l, ..) | Op::Load2(l, _) | Op::LoadField(l, ..) | Op::LoadVarAt(l, _) => {
            Op::Load(*l)
        }
        Op::BinJumpIfNot(b, _) => Op::Bin(*b),
        Op::StoreLoad(l, _) => Op::Store(*l),
        Op::AndJump(_) | Op::OrJump(_) | Op::DupSubFieldEq(..) => Op::Dup,
        Op::AllSubVar(k, _) => Op::SetAll(*k),
        Op::VarsSetBin(a, ..) => Op::LoadVar(*a),
        Op::MembersEqFirst(v) | Op::MembersEqCount(v) => Op::MembersEq(*v),
        Op::MembersFieldEqFirst(k, f) | Op::MembersFieldEqCount(k, f) => Op::MembersFieldEq(*k, *f),
        Op::SetNextOrJump { set, cur, var, .. } => Op::SetNext {
            set: *set,
            cur: *cur,
            var: *var,
        },
        Op::VarSetIn(v) | Op::VarSetBin(v, _) | Op::VarCount(v) => Op::LoadVar(*v),
        Op::WithLocal(a, ..) | Op::StepCmpJump { var: a, .. } => Op::Load(*a),
        Op::RequireLegal(m, _) => Op::Require(*m),
        Op::StoreCmpJump(..) => Op::Dup,
        Op::VarStoreCmpJump(v, ..) => Op::LoadVar(*v),
        Op::LoadBinKJumpIfNot(l, ..) | Op::LoadJump(l, ..) => Op::Load(*l),
        Op::Store2(a, _) | Op::StoreJump(a, _) => Op::Store(*a),
        Op::Move(a, _) | Op::LoadVarAtIn(a, ..) => Op::Load(*a),
        Op::SetLocal(_, k) => Op::Const(*k),
        Op::BinRequire(b, _) => Op::Bin(*b),
        Op::RequireIn(v, _) => Op::LoadVar(*v),
        Op::BinKRequireLegal(_, k, ..) => Op::Const((*k).into()),
        Op::LocalsRequire(l, ..)
        | Op::LoadRequireIn(l, ..)
        | Op::LoadLoadField(l, ..)
        | Op::LoadVarAtBinK(l, ..)
        | Op::LoadLoadVarAt(l, ..)
        | Op::LoadBin(l, _)
        | Op::LoadBinNth(l, ..)
        | Op::LoadsFieldIndex(l, ..)
        | Op::LoadVarSetIn(l, _)
        | Op::InJump(l, ..)
        | Op::LoadFieldBinNth(l, ..)
        | Op::LocalRun(l, ..)
        | Op::LocalGroups(l, ..) => Op::Load(*l),
        Op::StoreLoadVarAt(a, ..) => Op::Store(*a),
        Op::SetLocalStore(_, _, k) => Op::Const((*k).into()),
        _ => return None,
    })
}

/// The header line: `proc name(a: int) locals 4` and the like.
fn header(rules: &Ruleset, func: &Func) -> String {
    let what = if func.is_proc { "proc" } else { "fn" };
    let sig = match rules.symbols.get(&func.name) {
        Some(Global::Func(fid)) => rules
            .sigs
            .get(*fid as usize)
            .filter(|s| s.params.len() == func.arity),
        _ => None,
    };
    let params: Vec<String> = match sig {
        Some(s) => s
            .params
            .iter()
            .enumerate()
            .map(|(i, (n, _))| format!("l{i} {n}"))
            .collect(),
        None => (0..func.arity).map(|i| format!("l{i}")).collect(),
    };
    format!(
        "{what} {}({}){} locals {}",
        func.name,
        params.join(", "),
        if func.returns { " -> value" } else { "" },
        func.nlocals
    )
}

/// Every index a jump of `code` may land on.
fn jump_targets(code: &[Op]) -> BTreeSet<u32> {
    code.iter().filter_map(Op::jump_target).collect()
}

/// Names resolved through a ruleset (an index out of range shows as `?n`).
struct Names<'a>(&'a Ruleset);

impl Names<'_> {
    fn var(&self, v: VarId) -> String {
        self.0
            .vars
            .get(v as usize)
            .map_or_else(|| format!("?{v}"), |d| d.name.clone())
    }

    fn kind(&self, k: KindId) -> String {
        self.0
            .kinds
            .get(k as usize)
            .map_or_else(|| "?".to_string(), |d| d.name.clone())
    }

    /// A bound value's type: `int`, `bool` or a kind's name.
    fn ty(&self, t: &Ty) -> String {
        match t {
            Ty::Int => "int".into(),
            Ty::Bool => "bool".into(),
            Ty::Ent(k) => self.kind(*k),
            other => format!("{other:?}"),
        }
    }

    fn field(&self, k: KindId, f: u16) -> String {
        let name = self
            .0
            .kinds
            .get(k as usize)
            .and_then(|d| d.fields.get(f as usize))
            .map_or_else(|| format!("?{f}"), |d| d.name.clone());
        format!("{}.{name}", self.kind(k))
    }

    fn param(&self, p: u32) -> String {
        self.0
            .params
            .get(p as usize)
            .map_or_else(|| format!("?{p}"), |d| d.name.clone())
    }

    fn func(&self, f: u32) -> String {
        self.0
            .funcs
            .get(f as usize)
            .map_or_else(|| format!("?{f}"), |d| d.name.clone())
    }

    fn message(&self, m: u32) -> String {
        self.0
            .messages
            .get(m as usize)
            .map_or_else(|| format!("?{m}"), |(t, _)| format!("{t:?}"))
    }

    fn choice(&self, c: u32) -> String {
        self.0
            .choices
            .get(c as usize)
            .map_or_else(|| format!("?{c}"), |d| format!("{:?}", d.prompt))
    }

    /// One instruction.
    fn op(&self, op: &Op) -> String {
        match op {
            Op::Const(v) => format!("Const {v}"),
            Op::Load(l) => format!("Load l{l}"),
            Op::Store(l) => format!("Store l{l}"),
            Op::LoadVar(v) => format!("LoadVar {}", self.var(*v)),
            Op::StoreVar(v) => format!("StoreVar {}", self.var(*v)),
            Op::VarBit(v, on) => {
                format!("VarBit {} {}", self.var(*v), if *on { "in" } else { "out" })
            }
            Op::VarMerge(v, on) => {
                format!(
                    "VarMerge {} {}",
                    self.var(*v),
                    if *on { "in" } else { "out" }
                )
            }
            Op::AddVar(v) => format!("AddVar {}", self.var(*v)),
            Op::Field(k, f) => format!("Field {}", self.field(*k, *f)),
            Op::FieldIndex(k, f) => format!("FieldIndex {}", self.field(*k, *f)),
            Op::ParamIndex(p) => format!("ParamIndex {}", self.param(*p)),
            Op::Bin(b) => format!("Bin {b:?}"),
            Op::Jump(t) => format!("Jump -> {t}"),
            Op::JumpIf(t) => format!("JumpIf -> {t}"),
            Op::JumpIfNot(t) => format!("JumpIfNot -> {t}"),
            Op::Call(f, n) => format!("Call {}/{n}", self.func(*f)),
            Op::CallDyn(n) => format!("CallDyn /{n}"),
            Op::KindSize(k) => format!("KindSize {}", self.kind(*k)),
            Op::Nth(k) => format!("Nth {}", self.kind(*k)),
            Op::SetAll(k) => format!("SetAll {}", self.kind(*k)),
            Op::SetMake(k, n) => format!("SetMake {} {n}", self.kind(*k)),
            Op::SetRange => "SetRange".into(),
            Op::SetNext { set, cur, var } => format!("SetNext set l{set} cur l{cur} var l{var}"),
            Op::ListLen(v) => format!("ListLen {}", self.var(*v)),
            Op::ListIn(v) => format!("ListIn {}", self.var(*v)),
            Op::ListSet(v) => format!("ListSet {}", self.var(*v)),
            Op::ListDraw(v) => format!("ListDraw {}", self.var(*v)),
            Op::ListPush(v) => format!("ListPush {}", self.var(*v)),
            Op::ListRemove(v) => format!("ListRemove {}", self.var(*v)),
            Op::ListShuffle(v) => format!("ListShuffle {}", self.var(*v)),
            Op::ListClear(v) => format!("ListClear {}", self.var(*v)),
            Op::Adjacent(k) => format!("Adjacent {}", self.kind(*k)),
            Op::Toward(k) => format!("Toward {}", self.kind(*k)),
            Op::RunLength(k, back) => {
                let back = if *back { " back" } else { "" };
                format!("RunLength {}{back}", self.kind(*k))
            }
            Op::Connected(k) => format!("Connected {}", self.kind(*k)),
            Op::Components(k) => format!("Components {}", self.kind(*k)),
            Op::GroupsAround(k, given) => {
                let given = if *given { " marked" } else { "" };
                format!("GroupsAround {}{given}", self.kind(*k))
            }
            Op::GridCell(k) => format!("GridCell {}", self.kind(*k)),
            Op::SelectEq(v) => format!("SelectEq {}", self.var(*v)),
            Op::CountEq(v) => format!("CountEq {}", self.var(*v)),
            Op::MembersEq(v) => format!("MembersEq {}", self.var(*v)),
            Op::MembersCmp(v, op) => format!("MembersCmp {} {op:?}", self.var(*v)),
            Op::MembersFieldEq(k, f) => format!("MembersFieldEq {}", self.field(*k, *f)),
            Op::FieldImage(k, f) => format!("FieldImage {}", self.field(*k, *f)),
            Op::Rotate(v) => format!("Rotate {}", self.var(*v)),
            Op::Builtin(b, n) => format!("Builtin {b:?}/{n}"),
            Op::ChooseAdd(a) => format!("ChooseAdd arm {a}"),
            Op::ChooseAddSet(a) => format!("ChooseAddSet arm {a}"),
            Op::ChooseAddScreened { choice, arm } => {
                format!("ChooseAddScreened {} arm {arm}", self.choice(*choice))
            }
            Op::ChooseAddRange(a) => format!("ChooseAddRange arm {a}"),
            Op::ChooseWait(c) => format!("ChooseWait {}", self.choice(*c)),
            Op::Require(m) => format!("Require {}", self.message(*m)),
            Op::Fail(m) => format!("Fail {}", self.message(*m)),
            Op::Legal(m) => format!("Legal {}", self.message(*m)),
            Op::BinK(b, k) => format!("BinK {b:?} {k}"),
            Op::LoadBinK(l, b, k) => format!("LoadBinK l{l} {b:?} {k}"),
            Op::BinJumpIfNot(b, t) => format!("BinJumpIfNot {b:?} -> {t}"),
            Op::Load2(a, b) => format!("Load2 l{a} l{b}"),
            Op::StoreLoad(a, b) => format!("StoreLoad l{a} l{b}"),
            Op::LoadField(l, k, f) => format!("LoadField l{l} {}", self.field(*k, *f)),
            Op::BinKJumpIfNot(b, k, t) => format!("BinKJumpIfNot {b:?} {k} -> {t}"),
            Op::AndJump(t) => format!("AndJump -> {t}"),
            Op::OrJump(t) => format!("OrJump -> {t}"),
            Op::LoadVarAt(l, v) => format!("LoadVarAt l{l} {}", self.var(*v)),
            Op::SetNextOrJump {
                set,
                cur,
                var,
                done,
            } => format!("SetNextOrJump set l{set} cur l{cur} var l{var} -> {done}"),
            Op::VarSetIn(v) => format!("VarSetIn {}", self.var(*v)),
            Op::VarCount(v) => format!("VarCount {}", self.var(*v)),
            Op::VarSetBin(v, b) => format!("VarSetBin {} {b:?}", self.var(*v)),
            Op::WithLocal(a, b, on) => {
                let w = if *on { "With" } else { "Without" };
                format!("{w}Local l{a} l{b}")
            }
            Op::StoreCmpJump(a, b, op, t) => format!("StoreCmpJump l{a} {op:?} l{b} -> {t}"),
            Op::LoadBinKJumpIfNot(l, op, k, t) => {
                format!("LoadBinKJumpIfNot l{l} {op:?} {k} -> {t}")
            }
            Op::LoadJump(l, t, when) => format!("LoadJump l{l} {when} -> {t}"),
            Op::VarStoreCmpJump(v, a, op, k, t) => {
                format!("VarStoreCmpJump {} l{a} {op:?} {k} -> {t}", self.var(*v))
            }
            Op::StepCmpJump {
                var,
                bound,
                step,
                op,
                exit,
            } => format!("StepCmpJump l{var} Add {step} {op:?} l{bound} -> {exit}"),
            Op::RequireLegal(m, l) => {
                format!("RequireLegal {} {}", self.message(*m), self.message(*l))
            }
            Op::Store2(a, b) => format!("Store2 l{a} l{b}"),
            Op::Move(a, b) => format!("Move l{a} l{b}"),
            Op::SetLocal(a, k) => format!("SetLocal l{a} {k}"),
            Op::StoreJump(a, t) => format!("StoreJump l{a} -> {t}"),
            Op::BinRequire(b, m) => format!("BinRequire {b:?} {}", self.message(*m)),
            Op::RequireIn(v, m) => format!("RequireIn {} {}", self.var(*v), self.message(*m)),
            Op::LoadVarAtIn(l, v, w) => {
                format!("LoadVarAtIn l{l} {} {}", self.var(*v), self.var(*w))
            }
            Op::BinKRequireLegal(b, k, m, l) => {
                let (m, l) = (self.message(*m), self.message(*l));
                format!("BinKRequireLegal {b:?} {k} {m} {l}")
            }
            Op::LocalsRequire(a, c, b, m) => {
                format!("LocalsRequire l{a} {b:?} l{c} {}", self.message(*m))
            }
            Op::LoadRequireIn(l, v, m) => {
                format!("LoadRequireIn l{l} {} {}", self.var(*v), self.message(*m))
            }
            Op::VarsSetBin(a, b, op) => {
                format!("VarsSetBin {} {} {op:?}", self.var(*a), self.var(*b))
            }
            Op::AllSubVar(k, v) => format!("AllSubVar {} {}", self.kind(*k), self.var(*v)),
            Op::MembersEqFirst(v) => format!("MembersEqFirst {}", self.var(*v)),
            Op::MembersFieldEqFirst(k, f) => format!("MembersFieldEqFirst {}", self.field(*k, *f)),
            Op::MembersEqCount(v) => format!("MembersEqCount {}", self.var(*v)),
            Op::MembersFieldEqCount(k, f) => format!("MembersFieldEqCount {}", self.field(*k, *f)),
            Op::DupSubFieldEq(k, f, x) => format!("DupSubFieldEq {} {x}", self.field(*k, *f)),
            Op::LoadLoadField(a, b, k, f) => {
                format!("LoadLoadField l{a} l{b} {}", self.field(*k, *f))
            }
            Op::LoadVarAtBinK(l, v, b, k) => {
                format!("LoadVarAtBinK l{l} {} {b:?} {k}", self.var(*v))
            }
            Op::LoadLoadVarAt(a, b, v) => format!("LoadLoadVarAt l{a} l{b} {}", self.var(*v)),
            Op::LoadBin(l, b) => format!("LoadBin l{l} {b:?}"),
            Op::LoadBinNth(l, b, k) => format!("LoadBinNth l{l} {b:?} {}", self.kind(*k)),
            Op::StoreLoadVarAt(a, b, v) => format!("StoreLoadVarAt l{a} l{b} {}", self.var(*v)),
            Op::LoadsFieldIndex(a, b, k, f) => {
                format!("LoadsFieldIndex l{a} l{b} {}", self.field(*k, *f))
            }
            Op::LoadVarSetIn(l, v) => format!("LoadVarSetIn l{l} {}", self.var(*v)),
            Op::SetLocalStore(a, b, k) => format!("SetLocalStore l{a} {k} l{b}"),
            Op::InJump(l, v, t, when) => {
                let jump = if *when { "JumpIf" } else { "JumpIfNot" };
                format!("InJump l{l} {} {jump} -> {t}", self.var(*v))
            }
            Op::LocalRun(c, s, dx, dy, k) => {
                format!("LocalRun l{c} l{s} {dx} {dy} {}", self.kind(*k))
            }
            Op::LocalGroups(c, s, m, k) => {
                format!("LocalGroups l{c} l{s} {} {}", self.var(*m), self.kind(*k))
            }
            Op::LoadFieldBinNth(a, k, f, l, b, n) => format!(
                "LoadFieldBinNth l{a} {} l{l} {b:?} {}",
                self.field(*k, *f),
                self.kind(*n)
            ),
            Op::Neg
            | Op::Not
            | Op::Pop
            | Op::Dup
            | Op::Ret
            | Op::SetIn
            | Op::SetCount
            | Op::ChooseBegin
            | Op::Halt => format!("{op:?}"),
        }
    }
}

/// What the compiler learnt about each decision point and its arms: the
/// arm's name or bound type, whether it is quick, where its light prefix
/// starts, which requirements it screens on whole sets, which its light
/// try judges on the whole board in a full listing.
pub fn describe_choices(rules: &Ruleset) -> String {
    let names = Names(rules);
    let mut out = String::new();
    for (i, c) in rules.choices.iter().enumerate() {
        let clash = if c.names_may_clash {
            " (names may clash)"
        } else {
            ""
        };
        let _ = writeln!(out, "choice {i} {:?}{clash}", c.prompt);
        for (a, arm) in c.arms.iter().enumerate() {
            let what = match &arm.name {
                Some(n) => format!("`{n}`"),
                None => format!("each {}", names.ty(&arm.ty)),
            };
            let mut line = format!("  arm {a} {what}");
            if arm.quick {
                line.push_str(" quick");
            }
            if let Some(light) = &arm.light {
                let _ = write!(line, " light from {}", light.start);
                if let Some(b) = light.bind {
                    let _ = write!(line, " binding l{b}");
                }
            }
            for m in &arm.screen {
                let _ = write!(line, " screens {}", names.message(*m));
            }
            for r in arm.whole.iter().flat_map(|w| &w.reqs) {
                let _ = write!(line, " judges whole {}", names.message(r.msg));
            }
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

/// Every function of the ruleset named `name`, disassembled one after
/// another, separated by blank lines (`all`: every function, then the
/// decision points as [`describe_choices`] shows them); `None` when no
/// function has that name.
pub fn dump(rules: &Ruleset, name: &str) -> Option<String> {
    let mut texts: Vec<String> = rules
        .funcs
        .iter()
        .filter(|f| name == "all" || f.name == name)
        .map(|f| disassemble(rules, f))
        .collect();
    if name == "all" {
        texts.push(describe_choices(rules));
    }
    (!texts.is_empty()).then(|| texts.join("\n"))
}
