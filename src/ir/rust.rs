//! Bytecode translated to Rust source: the start of `tabula compile`.
//!
//! Only functions that never reach a decision are translated (their
//! instructions all have a native form below, and they call translated
//! functions only). Each becomes a Rust function over the same state as
//! the interpreter's (the words, through the undo trail), its stack slots
//! Rust locals: a slot only ever holding integers an `i64`, any other a
//! `Value`. The code of a function is a loop over its blocks (a block per
//! jump target), each adding the steps the interpreter would count there;
//! taken jumps and calls check the step limit as the interpreter does.
//! The generated source names its helpers `abi::...` and the state's
//! types; the crate including it provides them.

use crate::ir::bytecode::{BinaryOp, Func, Op};
use crate::ir::ruleset::Ruleset;
use crate::ir::types::Ty;
use crate::ir::verify::{unfused, UNREACHED};
use std::fmt::Write;

/// How a stack slot is held in the generated code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Repr {
    /// An `i64`: every value written there is an integer.
    Int,
    /// A `Value`.
    Val,
}

/// The Rust source of the translatable functions of `rules`, and a
/// table `TABLE` of them by function id (with each function's
/// fingerprint, the hash of its code, so that a table is used only with
/// the bytecode it was made from).
pub fn emit(rules: &Ruleset) -> String {
    let ok = translatable(rules);
    let mut out = String::new();
    for (f, func) in rules.funcs.iter().enumerate() {
        if ok[f] {
            emit_func(rules, f, func, &mut out);
        }
    }
    let _ = writeln!(out, "pub(super) static TABLE: &[Option<(u64, GenFn)>] = &[");
    for (f, ok) in ok.iter().enumerate() {
        match ok {
            true => writeln!(out, "    Some(({}, f{f})),", fingerprint(rules, f)),
            false => writeln!(out, "    None,"),
        }
        .expect("a string");
    }
    out.push_str("];\n");
    out
}

/// A hash of function `f`'s code and of the variables it names (FNV-1a
/// over their printed forms): what its translation depends on besides
/// what it reads from the ruleset as it runs.
pub fn fingerprint(rules: &Ruleset, f: usize) -> u64 {
    let func = &rules.funcs[f];
    let mut text = format!(
        "{:?}{}{}{}",
        func.code, func.nlocals, func.returns, func.arity
    );
    for op in &func.code {
        for part in unfused(op) {
            if let Some(v) = var_of(&part) {
                let vd = &rules.vars[v as usize];
                let _ = write!(text, "|{v}:{:?}:{}", vd.ty, vd.dims.len());
            }
        }
    }
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The variable a plain instruction names, if any.
fn var_of(op: &Op) -> Option<u32> {
    match op {
        Op::LoadVar(v) | Op::StoreVar(v) | Op::AddVar(v) | Op::SelectEq(v) | Op::CountEq(v) => {
            Some(*v)
        }
        _ => None,
    }
}

/// The plain instruction at `pc` (a fused one stands for a sequence
/// starting with it).
fn plain(func: &Func, pc: usize) -> Op {
    unfused(&func.code[pc])[0].clone()
}

/// Which functions are translated: all their reachable instructions have
/// a native form, and they call translated functions only.
fn translatable(rules: &Ruleset) -> Vec<bool> {
    let mut ok: Vec<bool> = rules.funcs.iter().map(|f| !f.heights.is_empty()).collect();
    loop {
        let mut changed = false;
        for (f, func) in rules.funcs.iter().enumerate() {
            let bad = (0..func.code.len())
                .filter(|pc| func.heights[*pc] != UNREACHED)
                .any(|pc| !supported(&plain(func, pc), &ok));
            if ok[f] && bad {
                ok[f] = false;
                changed = true;
            }
        }
        if !changed {
            return ok;
        }
    }
}

/// Whether an instruction has a native form.
fn supported(op: &Op, ok: &[bool]) -> bool {
    use Op::*;
    match op {
        Const(_) | Load(_) | Store(_) | LoadVar(_) | StoreVar(_) | AddVar(_) | Field(..) => true,
        Bin(_) | Neg | Not | Jump(_) | JumpIf(_) | JumpIfNot(_) | Pop | Dup | Ret => true,
        GridCell(_) | RunLength(..) | SelectEq(_) | CountEq(_) | SetIn => true,
        Call(f, _) => ok.get(*f as usize).copied().unwrap_or(false),
        _ => false,
    }
}

/// Whether an integer operation never fails (see `BinaryOp::on_ints`).
fn int_safe(op: BinaryOp) -> bool {
    op.on_ints(0, 1).is_some()
}

/// The slots `op` (at height `h`) writes, with the representation of
/// what it writes given the slots' current ones.
fn writes(rules: &Ruleset, op: &Op, h: usize, repr: &[Repr]) -> Vec<(usize, Repr)> {
    use Op::*;
    let is_set = |v: u32| matches!(rules.vars[v as usize].ty, Ty::Set(_));
    match op {
        Const(_) => vec![(h, Repr::Int)],
        Load(l) => vec![(h, repr[*l as usize])],
        Store(l) => vec![(*l as usize, repr[h - 1])],
        Dup => vec![(h, repr[h - 1])],
        LoadVar(v) => {
            let at = h - rules.vars[*v as usize].dims.len();
            vec![(at, if is_set(*v) { Repr::Val } else { Repr::Int })]
        }
        Field(..) | Neg | Not | SelectEq(_) | CountEq(_) => {
            let r = match op {
                SelectEq(_) => Repr::Val,
                _ => Repr::Int,
            };
            vec![(h - 1, r)]
        }
        Bin(b) => {
            let ints = repr[h - 1] == Repr::Int && repr[h - 2] == Repr::Int;
            let r = if ints && int_safe(*b) {
                Repr::Int
            } else {
                Repr::Val
            };
            vec![(h - 2, r)]
        }
        GridCell(_) | SetIn => vec![(h - 2, Repr::Int)],
        RunLength(..) => vec![(h - 4, Repr::Int)],
        Call(f, argc) if rules.funcs[*f as usize].returns => vec![(h - *argc as usize, Repr::Val)],
        _ => vec![],
    }
}

/// The successors of instruction `pc`.
fn successors(func: &Func, pc: usize) -> Vec<usize> {
    match plain(func, pc) {
        Op::Jump(t) => vec![t as usize],
        Op::JumpIf(t) | Op::JumpIfNot(t) => vec![pc + 1, t as usize],
        Op::Ret => vec![],
        _ => vec![pc + 1],
    }
}

/// The representation of each slot at the entry of every reachable
/// instruction (a forward walk: parameters are values, other locals
/// integers; where paths meet with different ones, a value), and after
/// instruction `pc` given its entry.
fn states(rules: &Ruleset, func: &Func) -> Vec<Option<Vec<Repr>>> {
    let n = func.code.len();
    let mut at: Vec<Option<Vec<Repr>>> = vec![None; n];
    let mut entry = vec![Repr::Int; func.nlocals];
    entry[..func.arity].fill(Repr::Val);
    at[0] = Some(entry);
    let mut work = vec![0usize];
    while let Some(pc) = work.pop() {
        let Some(inp) = at[pc].clone() else { continue };
        for succ in successors(func, pc) {
            let out = after(rules, func, pc, &inp, succ);
            let merged = match &at[succ] {
                None => out,
                Some(old) => old
                    .iter()
                    .zip(&out)
                    .map(|(a, b)| if a == b { *a } else { Repr::Val })
                    .collect(),
            };
            if at[succ].as_ref() != Some(&merged) {
                at[succ] = Some(merged);
                work.push(succ);
            }
        }
    }
    at
}

/// The slots' representation after instruction `pc` (entry `inp`), going
/// on to `succ`.
fn after(rules: &Ruleset, func: &Func, pc: usize, inp: &[Repr], succ: usize) -> Vec<Repr> {
    let h = func.heights[pc] as usize;
    let h_out = func.heights[succ] as usize;
    let mut out: Vec<Repr> = (0..h_out)
        .map(|k| inp.get(k).copied().unwrap_or(Repr::Int))
        .collect();
    for (k, r) in writes(rules, &plain(func, pc), h, inp) {
        if k < h_out {
            out[k] = r;
        }
    }
    out
}

/// The first instruction of each block: the start, jump targets, and the
/// instruction after a jump or a return.
fn leaders(func: &Func) -> Vec<bool> {
    let n = func.code.len();
    let mut lead = vec![false; n + 1];
    lead[0] = true;
    for pc in 0..n {
        match plain(func, pc) {
            Op::Jump(t) | Op::JumpIf(t) | Op::JumpIfNot(t) => {
                lead[t as usize] = true;
                lead[pc + 1] = true;
            }
            Op::Ret => lead[pc + 1] = true,
            _ => {}
        }
    }
    lead
}

/// The steps the interpreter counts running `from..to` (a block): one
/// per instruction dispatched, a fused one covering its sequence.
fn block_steps(func: &Func, from: usize, to: usize) -> usize {
    let (mut pc, mut n) = (from, 0);
    while pc < to {
        n += 1;
        pc += unfused(&func.code[pc]).len();
    }
    n
}

/// Emits function `f`.
fn emit_func(rules: &Ruleset, f: usize, func: &Func, out: &mut String) {
    let states = states(rules, func);
    let _ = writeln!(out, "/// `{}`, translated.", func.name);
    let _ = writeln!(
        out,
        "#[allow(unused_mut, unused_variables, unused_assignments, clippy::all)]\n\
         fn f{f}(rules: &Ruleset, st: &mut State, args: &[Value], mut steps: u64) -> Gen {{"
    );
    for s in 0..func.max_stack as usize {
        let v = match s < func.arity {
            true => format!("args[{s}].clone()"),
            false => "Value::I(0)".to_string(),
        };
        let _ = writeln!(
            out,
            "    let mut i{s}: i64 = 0;\n    let mut v{s}: Value = {v};"
        );
    }
    out.push_str("    let mut pc: u32 = 0;\n    loop {\n");
    out.push_str("        match pc {\n");
    let lead = leaders(func);
    let n = func.code.len();
    let mut pc = 0;
    while pc < n {
        let end = (pc + 1..=n).find(|e| lead[*e]).unwrap_or(n);
        if states[pc].is_some() {
            let block = Block {
                rules,
                f,
                func,
                states: &states,
                start: pc,
                end,
            };
            block.emit(out);
        }
        pc = end;
    }
    out.push_str("            _ => unreachable!(),\n        }\n    }\n}\n\n");
}

/// A block of a function being emitted: instructions `start..end`.
struct Block<'a> {
    rules: &'a Ruleset,
    f: usize,
    func: &'a Func,
    states: &'a [Option<Vec<Repr>>],
    start: usize,
    end: usize,
}

impl Block<'_> {
    /// Emits the block as one arm of the function's `match pc`. An
    /// operand loaded from a local is read there (`alias`) until that
    /// local is written or the block ends.
    fn emit(&self, out: &mut String) {
        let (func, end) = (self.func, self.end);
        let _ = writeln!(out, "            {} => {{", self.start);
        let steps = block_steps(func, self.start, end);
        let _ = writeln!(out, "                steps += {steps};");
        let mut repr = self.states[self.start].clone().unwrap_or_default();
        let mut alias: Vec<Option<usize>> = vec![None; func.max_stack as usize];
        for at in self.start..end {
            let op = plain(func, at);
            let h = func.heights[at] as usize;
            let last = at + 1 == end;
            match (&op, last) {
                (Op::Load(l), false) => alias[h] = Some(*l as usize),
                _ => self.instruction(&op, at, &repr, &mut alias, out),
            }
            if !last {
                repr = after(self.rules, func, at, &repr, at + 1);
                alias[func.heights[at + 1] as usize..].fill(None);
            }
        }
        out.push_str("            }\n");
    }

    /// Emits instruction `at` (`op`, entry `repr`): first the copies of
    /// the operands aliasing a local it writes (all of them at the end of
    /// the block), then the instruction, then the way on.
    fn instruction(
        &self,
        op: &Op,
        at: usize,
        repr: &[Repr],
        alias: &mut [Option<usize>],
        out: &mut String,
    ) {
        let h = self.func.heights[at] as usize;
        let last = at + 1 == self.end;
        let written: Vec<usize> = writes(self.rules, op, h, repr)
            .iter()
            .map(|w| w.0)
            .collect();
        // The condition of a jump ending the block is read where it is.
        let keep = match (last, op) {
            (true, Op::JumpIf(_) | Op::JumpIfNot(_)) => Some(h - 1),
            _ => None,
        };
        let copies: Vec<usize> = (0..h)
            .filter(|s| Some(*s) != keep)
            .filter(|s| alias[*s].is_some_and(|l| last || written.contains(&l)))
            .collect();
        for s in &copies {
            let line = self.at(at, repr, alias).materialize(*s);
            let _ = writeln!(out, "                {line}");
        }
        for s in copies {
            alias[s] = None;
        }
        let e = self.at(at, repr, alias);
        e.op(op, out);
        if last && !matches!(op, Op::Jump(_) | Op::Ret) {
            let conv = e.convert(self.end);
            let _ = writeln!(out, "                {conv}pc = {};", self.end);
        }
        for w in written {
            alias[w] = None;
        }
    }

    /// The emission of instruction `pc`.
    fn at<'b>(&'b self, pc: usize, repr: &'b [Repr], alias: &'b [Option<usize>]) -> Emit<'b> {
        Emit {
            rules: self.rules,
            f: self.f,
            func: self.func,
            repr,
            pc,
            states: self.states,
            alias,
        }
    }
}

/// One instruction's emission.
struct Emit<'a> {
    rules: &'a Ruleset,
    f: usize,
    func: &'a Func,
    repr: &'a [Repr],
    pc: usize,
    states: &'a [Option<Vec<Repr>>],
    alias: &'a [Option<usize>],
}

impl Emit<'_> {
    /// The height before the instruction.
    fn h(&self) -> usize {
        self.func.heights[self.pc] as usize
    }

    /// Where slot `s` is read: the local it was loaded from, if not copied.
    fn src(&self, s: usize) -> usize {
        self.alias[s].unwrap_or(s)
    }

    /// Slot `s` given the value of the local it aliases.
    fn materialize(&self, s: usize) -> String {
        let l = self.src(s);
        self.set(s, self.repr[l], &self.val_or_int(l))
    }

    /// Slot `s` read as an integer.
    fn int(&self, s: usize) -> String {
        let s = self.src(s);
        match self.repr[s] {
            Repr::Int => format!("i{s}"),
            Repr::Val => format!("v{s}.int()"),
        }
    }

    /// Slot `s` read as a value (copied).
    fn val(&self, s: usize) -> String {
        let s = self.src(s);
        match self.repr[s] {
            Repr::Int => format!("Value::I(i{s})"),
            Repr::Val => format!("v{s}.clone()"),
        }
    }

    /// Assigns an expression of representation `r` to slot `s`.
    fn set(&self, s: usize, r: Repr, e: &str) -> String {
        match r {
            Repr::Int => format!("i{s} = {e};"),
            Repr::Val => format!("v{s} = {e};"),
        }
    }

    /// The conversions going on to `succ` needs: a slot an integer here
    /// and a value there is made one.
    fn convert(&self, succ: usize) -> String {
        let Some(there) = &self.states[succ] else {
            return String::new();
        };
        let here = after(self.rules, self.func, self.pc, self.repr, succ);
        let mut out = String::new();
        for (k, (a, b)) in here.iter().zip(there).enumerate() {
            if *a == Repr::Int && *b == Repr::Val {
                let _ = write!(out, "v{k} = Value::I(i{k}); ");
            }
        }
        out
    }

    /// Where an error of this instruction is placed.
    fn at(&self) -> String {
        format!(
            ".map_err(|e| e.at(abi::span(rules, {}, {})))?",
            self.f, self.pc
        )
    }

    /// A taken jump to `t`.
    fn goto(&self, t: u32) -> String {
        format!(
            "if steps > abi::STEP_LIMIT {{ return Err(abi::runaway(abi::span(rules, {}, {}))); }} \
             {}pc = {t}; continue;",
            self.f,
            self.pc,
            self.convert(t as usize)
        )
    }

    /// The offset of variable `v`'s element, its indices below slot `top`.
    fn offset(&self, v: u32, top: usize) -> String {
        let nd = self.rules.vars[v as usize].dims.len();
        let idx: Vec<String> = (top - nd..top).map(|s| self.int(s)).collect();
        format!(
            "abi::offset(rules, st, {v}, &[{}]){}",
            idx.join(", "),
            self.at()
        )
    }

    /// Emits `op`.
    fn op(&self, op: &Op, out: &mut String) {
        let h = self.h();
        let line = self.line(op, h);
        let _ = writeln!(out, "                {line} // {}", self.pc);
    }

    /// The Rust of `op` at height `h`.
    fn line(&self, op: &Op, h: usize) -> String {
        use Op::*;
        match op {
            Const(k) => self.set(h, Repr::Int, &format!("{k}")),
            Load(l) => self.set(h, self.repr[*l as usize], &self.val_or_int(*l as usize)),
            Store(l) if self.alias[h - 1].is_none() && self.repr[h - 1] == Repr::Val => {
                // The operand is popped: moved, not copied.
                let e = format!("std::mem::replace(&mut v{}, Value::I(0))", h - 1);
                self.set(*l as usize, Repr::Val, &e)
            }
            Store(l) => self.set(*l as usize, self.repr[h - 1], &self.val_or_int(h - 1)),
            Dup => self.set(h, self.repr[h - 1], &self.val_or_int(h - 1)),
            Pop => String::new(),
            LoadVar(v) => self.load_var(*v, h),
            StoreVar(v) => format!(
                "{{ let off = {}; abi::store(rules, st, {v}, off, {}){}; }}",
                self.offset(*v, h - 1),
                self.val(h - 1),
                self.at()
            ),
            AddVar(v) => format!(
                "{{ let off = {}; abi::add(st, off, {}){}; }}",
                self.offset(*v, h - 1),
                self.int(h - 1),
                self.at()
            ),
            Field(k, f) => {
                let e = format!(
                    "abi::field(rules, {k}, {f}, {}){}",
                    self.int(h - 1),
                    self.at()
                );
                self.set(h - 1, Repr::Int, &e)
            }
            Bin(b) => self.bin(*b, h),
            Neg => self.set(
                h - 1,
                Repr::Int,
                &format!("{}.saturating_neg()", self.int(h - 1)),
            ),
            Not => self.set(
                h - 1,
                Repr::Int,
                &format!("({} == 0) as i64", self.int(h - 1)),
            ),
            Jump(t) => self.goto(*t),
            JumpIf(t) | JumpIfNot(t) => {
                let want = matches!(op, JumpIf(_));
                format!(
                    "if ({} != 0) == {want} {{ {} }}",
                    self.int(h - 1),
                    self.goto(*t)
                )
            }
            GridCell(_) | RunLength(..) | SelectEq(_) | CountEq(_) | SetIn => self.line_sets(op, h),
            Call(f, argc) => self.call(*f, *argc as usize, h),
            Ret => match self.func.returns {
                true => format!("return Ok((Some({}), steps));", self.val(h - 1)),
                false => "return Ok((None, steps));".to_string(),
            },
            _ => unreachable!("not translated: {op:?}"),
        }
    }

    /// The Rust of a grid or set instruction `op` at height `h`.
    fn line_sets(&self, op: &Op, h: usize) -> String {
        use Op::*;
        match op {
            GridCell(k) => {
                let e = format!(
                    "abi::grid_cell(rules, {k}, {}, {})",
                    self.int(h - 2),
                    self.int(h - 1)
                );
                self.set(h - 2, Repr::Int, &e)
            }
            RunLength(k, back) => {
                let (c, dx, dy) = (self.int(h - 4), self.int(h - 3), self.int(h - 2));
                let set = self.bits(h - 1);
                let e = format!("abi::run_length(rules, {k}, {back}, {c}, {dx}, {dy}, {set})");
                self.set(h - 4, Repr::Int, &e)
            }
            SelectEq(v) => {
                let e = format!("abi::select_eq(rules, st, {v}, {})", self.int(h - 1));
                self.set(h - 1, Repr::Val, &e)
            }
            CountEq(v) => {
                let e = format!("abi::count_eq(rules, st, {v}, {})", self.int(h - 1));
                self.set(h - 1, Repr::Int, &e)
            }
            SetIn => {
                let e = format!("abi::has({}, {})", self.bits(h - 1), self.int(h - 2));
                self.set(h - 2, Repr::Int, &e)
            }
            _ => unreachable!("not a set instruction: {op:?}"),
        }
    }

    /// Slot `s` copied in its own representation.
    fn val_or_int(&self, s: usize) -> String {
        let s = self.src(s);
        match self.repr[s] {
            Repr::Int => format!("i{s}"),
            Repr::Val => format!("v{s}.clone()"),
        }
    }

    /// Slot `s`'s set words (none for an integer).
    fn bits(&self, s: usize) -> String {
        let s = self.src(s);
        match self.repr[s] {
            Repr::Int => "&[]".to_string(),
            Repr::Val => format!("v{s}.bits()"),
        }
    }

    /// `LoadVar(v)`: an integer read in place, a set made a value.
    fn load_var(&self, v: u32, h: usize) -> String {
        let at = h - self.rules.vars[v as usize].dims.len();
        let off = self.offset(v, h);
        match matches!(self.rules.vars[v as usize].ty, Ty::Set(_)) {
            true => self.set(
                at,
                Repr::Val,
                &format!("{{ let off = {off}; abi::value(rules, st, {v}, off) }}"),
            ),
            false => self.set(
                at,
                Repr::Int,
                &format!("{{ let off = {off}; st.words[off] }}"),
            ),
        }
    }

    /// `Bin(b)`: inline on integers when it cannot fail, else the
    /// interpreter's operation on values.
    fn bin(&self, b: BinaryOp, h: usize) -> String {
        let ints = self.repr[h - 1] == Repr::Int && self.repr[h - 2] == Repr::Int;
        let (x, y) = (self.int(h - 2), self.int(h - 1));
        if ints && int_safe(b) {
            use BinaryOp::*;
            let e = match b {
                Add => format!("{x}.saturating_add({y})"),
                Sub => format!("{x}.saturating_sub({y})"),
                Mul => format!("{x}.saturating_mul({y})"),
                Or => format!("(({x} != 0) || ({y} != 0)) as i64"),
                And => format!("(({x} != 0) && ({y} != 0)) as i64"),
                Eq => format!("({x} == {y}) as i64"),
                Ne => format!("({x} != {y}) as i64"),
                Lt => format!("({x} < {y}) as i64"),
                Le => format!("({x} <= {y}) as i64"),
                Gt => format!("({x} > {y}) as i64"),
                Ge => format!("({x} >= {y}) as i64"),
                Div | Rem | In => unreachable!("not int-safe"),
            };
            return self.set(h - 2, Repr::Int, &e);
        }
        let e = format!(
            "abi::binary(BinaryOp::{b:?}, {}, {}){}",
            self.val(h - 2),
            self.val(h - 1),
            self.at()
        );
        self.set(h - 2, Repr::Val, &e)
    }

    /// `Call(f, argc)`: the translated callee called directly.
    fn call(&self, f: u32, argc: usize, h: usize) -> String {
        let args: Vec<String> = (h - argc..h).map(|s| self.val(s)).collect();
        let check = format!(
            "if steps > abi::STEP_LIMIT {{ return Err(abi::runaway(abi::span(rules, {}, {}))); }}",
            self.f, self.pc
        );
        let call = format!(
            "let (r, n) = f{f}(rules, st, &[{}], steps)?; steps = n;",
            args.join(", ")
        );
        let keep = match self.rules.funcs[f as usize].returns {
            true => self.set(h - argc, Repr::Val, "r.unwrap_or(Value::I(0))"),
            false => String::new(),
        };
        format!("{{ {check} {call} {keep} }}")
    }
}
