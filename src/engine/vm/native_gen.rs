/// `discs_of`, translated.
#[allow(unused_mut, unused_variables, unused_assignments, clippy::all)]
fn f0(rules: &Ruleset, st: &mut State, args: &[Value]) -> Gen {
    let mut i0: i64 = 0;
    let mut v0: Value = args[0].clone();
    let mut i1: i64 = 0;
    let mut v1: Value = Value::I(0);
    let mut steps: u64 = 0;
    let mut pc: u32 = 0;
    loop {
        match pc {
            0 => {
                steps += 3;
                v1 = abi::select_eq(rules, st, 0, v0.int()); // 1
                return Ok((Some(v1.clone()), steps)); // 2
            }
            _ => unreachable!(),
        }
    }
}

/// `line_length`, translated.
#[allow(unused_mut, unused_variables, unused_assignments, clippy::all)]
fn f1(rules: &Ruleset, st: &mut State, args: &[Value]) -> Gen {
    let mut i0: i64 = 0;
    let mut v0: Value = args[0].clone();
    let mut i1: i64 = 0;
    let mut v1: Value = args[1].clone();
    let mut i2: i64 = 0;
    let mut v2: Value = args[2].clone();
    let mut i3: i64 = 0;
    let mut v3: Value = Value::I(0);
    let mut i4: i64 = 0;
    let mut v4: Value = Value::I(0);
    let mut i5: i64 = 0;
    let mut v5: Value = Value::I(0);
    let mut i6: i64 = 0;
    let mut v6: Value = Value::I(0);
    let mut i7: i64 = 0;
    let mut v7: Value = Value::I(0);
    let mut steps: u64 = 0;
    let mut pc: u32 = 0;
    loop {
        match pc {
            0 => {
                steps += 11;
                i4 = abi::field(rules, 2, 0, v2.int()).map_err(|e| e.at(abi::span(rules, 1, 2)))?; // 2
                i5 = abi::field(rules, 2, 1, v2.int()).map_err(|e| e.at(abi::span(rules, 1, 4)))?; // 4
                i3 = abi::run_length(rules, 1, false, v1.int(), i4, i5, v0.bits()); // 6
                i4 = 1; // 7
                i3 = i3.saturating_add(i4); // 8
                i5 = abi::field(rules, 2, 0, v2.int()).map_err(|e| e.at(abi::span(rules, 1, 11)))?; // 11
                i6 = abi::field(rules, 2, 1, v2.int()).map_err(|e| e.at(abi::span(rules, 1, 13)))?; // 13
                i4 = abi::run_length(rules, 1, true, v1.int(), i5, i6, v0.bits()); // 15
                i3 = i3.saturating_add(i4); // 16
                return Ok((Some(Value::I(i3)), steps)); // 17
            }
            _ => unreachable!(),
        }
    }
}

/// `drop`, translated.
#[allow(unused_mut, unused_variables, unused_assignments, clippy::all)]
fn f2(rules: &Ruleset, st: &mut State, args: &[Value]) -> Gen {
    let mut i0: i64 = 0;
    let mut v0: Value = args[0].clone();
    let mut i1: i64 = 0;
    let mut v1: Value = args[1].clone();
    let mut i2: i64 = 0;
    let mut v2: Value = Value::I(0);
    let mut i3: i64 = 0;
    let mut v3: Value = Value::I(0);
    let mut i4: i64 = 0;
    let mut v4: Value = Value::I(0);
    let mut i5: i64 = 0;
    let mut v5: Value = Value::I(0);
    let mut i6: i64 = 0;
    let mut v6: Value = Value::I(0);
    let mut i7: i64 = 0;
    let mut v7: Value = Value::I(0);
    let mut i8: i64 = 0;
    let mut v8: Value = Value::I(0);
    let mut i9: i64 = 0;
    let mut v9: Value = Value::I(0);
    let mut steps: u64 = 0;
    let mut pc: u32 = 0;
    loop {
        match pc {
            0 => {
                steps += 28;
                i6 = 5; // 1
                i7 = { let off = abi::offset(rules, st, 1, &[v1.int()]).map_err(|e| e.at(abi::span(rules, 2, 3)))?; st.words[off] }; // 3
                i6 = i6.saturating_sub(i7); // 4
                i5 = abi::grid_cell(rules, 1, v1.int(), i6); // 5
                i2 = i5; // 6
                { let off = abi::offset(rules, st, 0, &[i2]).map_err(|e| e.at(abi::span(rules, 2, 9)))?; abi::store(rules, st, 0, off, v0.clone()).map_err(|e| e.at(abi::span(rules, 2, 9)))?; } // 9
                i6 = 1; // 11
                { let off = abi::offset(rules, st, 1, &[v1.int()]).map_err(|e| e.at(abi::span(rules, 2, 12)))?; abi::add(st, off, i6).map_err(|e| e.at(abi::span(rules, 2, 12)))?; } // 12
                i5 = 1; // 13
                { let off = abi::offset(rules, st, 2, &[]).map_err(|e| e.at(abi::span(rules, 2, 14)))?; abi::add(st, off, i5).map_err(|e| e.at(abi::span(rules, 2, 14)))?; } // 14
                v5 = abi::select_eq(rules, st, 0, v0.int()); // 16
                v3 = std::mem::replace(&mut v5, Value::I(0)); // 17
                i6 = 1; // 19
                i7 = 0; // 20
                i5 = abi::run_length(rules, 1, false, i2, i6, i7, v3.bits()); // 22
                i6 = 1; // 23
                i5 = i5.saturating_add(i6); // 24
                i7 = 1; // 26
                i8 = 0; // 27
                i6 = abi::run_length(rules, 1, true, i2, i7, i8, v3.bits()); // 29
                i5 = i5.saturating_add(i6); // 30
                i6 = 4; // 31
                i5 = (i5 < i6) as i64; // 32
                if (i5 != 0) == false { if steps > abi::STEP_LIMIT { return Err(abi::runaway(abi::span(rules, 2, 33))); } pc = 82; continue; } // 33
                pc = 34;
            }
            34 => {
                steps += 13;
                i6 = 0; // 35
                i7 = 1; // 36
                i5 = abi::run_length(rules, 1, false, i2, i6, i7, v3.bits()); // 38
                i6 = 1; // 39
                i5 = i5.saturating_add(i6); // 40
                i7 = 0; // 42
                i8 = 1; // 43
                i6 = abi::run_length(rules, 1, true, i2, i7, i8, v3.bits()); // 45
                i5 = i5.saturating_add(i6); // 46
                i6 = 4; // 47
                i5 = (i5 < i6) as i64; // 48
                if (i5 != 0) == false { if steps > abi::STEP_LIMIT { return Err(abi::runaway(abi::span(rules, 2, 49))); } pc = 82; continue; } // 49
                pc = 50;
            }
            50 => {
                steps += 13;
                i6 = 1; // 51
                i7 = 1; // 52
                i5 = abi::run_length(rules, 1, false, i2, i6, i7, v3.bits()); // 54
                i6 = 1; // 55
                i5 = i5.saturating_add(i6); // 56
                i7 = 1; // 58
                i8 = 1; // 59
                i6 = abi::run_length(rules, 1, true, i2, i7, i8, v3.bits()); // 61
                i5 = i5.saturating_add(i6); // 62
                i6 = 4; // 63
                i5 = (i5 < i6) as i64; // 64
                if (i5 != 0) == false { if steps > abi::STEP_LIMIT { return Err(abi::runaway(abi::span(rules, 2, 65))); } pc = 82; continue; } // 65
                pc = 66;
            }
            66 => {
                steps += 13;
                i6 = 1; // 67
                i7 = -1; // 68
                i5 = abi::run_length(rules, 1, false, i2, i6, i7, v3.bits()); // 70
                i6 = 1; // 71
                i5 = i5.saturating_add(i6); // 72
                i7 = 1; // 74
                i8 = -1; // 75
                i6 = abi::run_length(rules, 1, true, i2, i7, i8, v3.bits()); // 77
                i5 = i5.saturating_add(i6); // 78
                i6 = 4; // 79
                i5 = (i5 >= i6) as i64; // 80
                if (i5 != 0) == false { if steps > abi::STEP_LIMIT { return Err(abi::runaway(abi::span(rules, 2, 81))); } pc = 84; continue; } // 81
                pc = 82;
            }
            82 => {
                steps += 2;
                v5 = v0.clone();
                { let off = abi::offset(rules, st, 3, &[]).map_err(|e| e.at(abi::span(rules, 2, 83)))?; abi::store(rules, st, 3, off, v5.clone()).map_err(|e| e.at(abi::span(rules, 2, 83)))?; } // 83
                pc = 84;
            }
            84 => {
                steps += 1;
                return Ok((None, steps)); // 84
            }
            _ => unreachable!(),
        }
    }
}

/// `init winner`, translated.
#[allow(unused_mut, unused_variables, unused_assignments, clippy::all)]
fn f4(rules: &Ruleset, st: &mut State, args: &[Value]) -> Gen {
    let mut i0: i64 = 0;
    let mut v0: Value = Value::I(0);
    let mut steps: u64 = 0;
    let mut pc: u32 = 0;
    loop {
        match pc {
            0 => {
                steps += 2;
                i0 = -1; // 0
                return Ok((Some(Value::I(i0)), steps)); // 1
            }
            _ => unreachable!(),
        }
    }
}

/// `score`, translated.
#[allow(unused_mut, unused_variables, unused_assignments, clippy::all)]
fn f5(rules: &Ruleset, st: &mut State, args: &[Value]) -> Gen {
    let mut i0: i64 = 0;
    let mut v0: Value = args[0].clone();
    let mut i1: i64 = 0;
    let mut v1: Value = Value::I(0);
    let mut i2: i64 = 0;
    let mut v2: Value = Value::I(0);
    let mut steps: u64 = 0;
    let mut pc: u32 = 0;
    loop {
        match pc {
            0 => {
                steps += 3;
                i1 = { let off = abi::offset(rules, st, 3, &[]).map_err(|e| e.at(abi::span(rules, 5, 0)))?; st.words[off] }; // 0
                v1 = abi::binary(BinaryOp::Eq, Value::I(i1), v0.clone()).map_err(|e| e.at(abi::span(rules, 5, 2)))?; // 2
                if (v1.int() != 0) == false { if steps > abi::STEP_LIMIT { return Err(abi::runaway(abi::span(rules, 5, 3))); } pc = 6; continue; } // 3
                pc = 4;
            }
            4 => {
                steps += 2;
                i1 = 1; // 4
                return Ok((Some(Value::I(i1)), steps)); // 5
            }
            6 => {
                steps += 2;
                i1 = 0; // 6
                return Ok((Some(Value::I(i1)), steps)); // 7
            }
            _ => unreachable!(),
        }
    }
}

/// `ending four in a row`, translated.
#[allow(unused_mut, unused_variables, unused_assignments, clippy::all)]
fn f6(rules: &Ruleset, st: &mut State, args: &[Value]) -> Gen {
    let mut i0: i64 = 0;
    let mut v0: Value = Value::I(0);
    let mut i1: i64 = 0;
    let mut v1: Value = Value::I(0);
    let mut steps: u64 = 0;
    let mut pc: u32 = 0;
    loop {
        match pc {
            0 => {
                steps += 3;
                i0 = { let off = abi::offset(rules, st, 3, &[]).map_err(|e| e.at(abi::span(rules, 6, 0)))?; st.words[off] }; // 0
                i1 = -1; // 1
                i0 = (i0 != i1) as i64; // 2
                return Ok((Some(Value::I(i0)), steps)); // 3
            }
            _ => unreachable!(),
        }
    }
}

pub(super) static TABLE: &[Option<(u64, GenFn)>] = &[
    Some((9480621269827281004, f0)),
    Some((4226977863129635846, f1)),
    Some((9663004486898361165, f2)),
    None,
    Some((16316013138031317009, f4)),
    Some((14138313608483445700, f5)),
    Some((17237978754447689123, f6)),
];
