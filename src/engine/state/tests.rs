//! Unit tests of the state: values, spares, buffers.

use super::*;

#[test]
fn a_value_stays_16_bytes_and_copies_sets_exactly() {
    assert_eq!(std::mem::size_of::<Value>(), 16);
    for n in [0, 1, 3, 4, 5, 9] {
        let bits: Bits = (0..n as u64).map(|w| w * 0x0101 + 1).collect();
        let v = Value::S(bits.clone());
        assert_eq!(v.clone().bits(), &bits[..]);
        assert_eq!(v.clone(), v);
    }
}

#[test]
fn a_stack_is_copied_and_emptied_exactly_whatever_its_length() {
    for n in [0, 1, 7, 8, 9, 16, 23, 24, 44] {
        for every in [0, 1, 3, 8, 9] {
            let from: Vec<Value> = (0..n)
                .map(|k| {
                    if every > 0 && k % every == 0 {
                        Value::S((0..3u64).map(|w| w + k as u64).collect())
                    } else {
                        Value::I(k as i64)
                    }
                })
                .collect();
            let mut to = Vec::new();
            copy_values(&from, &mut to);
            assert_eq!(to, from);
            let mut again = from.clone();
            clear_values(&mut to);
            assert!(to.is_empty());
            // The original's sets are still whole once the copy's went.
            assert_eq!(again, from);
            clear_values(&mut again);
            assert!(again.is_empty());
        }
    }
}

#[test]
fn options_kept_unlisted_are_listed_as_had_they_been_at_once() {
    let set = |members: &[usize]| {
        let mut b = bits::empty(130);
        members.iter().for_each(|&m| bits::put_at(&mut b, m));
        b
    };
    let (first, second) = ([1, 3, 64, 129], [2]);
    let passing = || [set(&[1, 64]), set(&[2]), set(&[2, 5])].into_iter();
    let mut eager = Vm::default();
    eager.options.push((0, 7));
    bits::push_tagged(&mut eager.options, 1, &set(&first));
    eager.screened.add((1, 5), (0, 1), passing().take(1));
    eager.options.push((2, 5));
    bits::push_tagged(&mut eager.options, 3, &set(&second));
    eager.screened.add((6, 7), (0, 3), passing().skip(1));
    let mut kept = Vm::default();
    kept.options.push((0, 7));
    kept.screened
        .add_unlisted((1, 5), (0, 1), passing().take(1), (1, set(&first)));
    kept.options.push((1, 0));
    kept.options.push((2, 5));
    assert_eq!(kept.option_count(), 6);
    kept.screened
        .add_unlisted((6, 7), (0, 3), passing().skip(1), (3, set(&second)));
    kept.options.push((3, 0));
    assert_eq!(kept.option_count(), eager.options.len());
    assert_eq!(kept.first_option_at(1), (1, 1));
    assert_eq!(kept.first_option_at(3), (3, 2));
    kept.list_unlisted();
    assert_eq!(kept.options, eager.options);
    assert_eq!(
        format!("{:?}", kept.screened),
        format!("{:?}", eager.screened)
    );
    assert_eq!(kept.option_count(), eager.options.len());
}
