//! Hidden-information sampling: copies of a game consistent with what one
//! seat can see.
//!
//! A bot must not read what its seat cannot know. [`determinize`] makes a
//! copy of the game in which every unseen item (the contents of `hidden`
//! sets and lists, and of other players' `private` ones) is pooled per kind
//! and dealt back at random, each place keeping its size, and in which
//! future chance is reseeded. Search and lookahead then play on the copy.

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64;

use super::Game;
use crate::ir::ruleset::{Ruleset, Ty, Visibility};

/// A uniform integer in `0..n` drawn from `rng` by rejection sampling
/// (0 when `n` is 0).
pub fn uniform_below(rng: &mut impl RngCore, n: usize) -> usize {
    if n <= 1 {
        return 0;
    }
    let n = n as u64;
    // Reject the top partial block of the u64 range so every residue is equally likely.
    let zone = u64::MAX - (u64::MAX % n + 1) % n;
    loop {
        let x = rng.next_u64();
        if x <= zone {
            return (x % n) as usize;
        }
    }
}

/// One place `me` cannot see: a hidden set or list, or another player's
/// private one.
struct Unseen {
    /// The kind of the items it holds.
    kind: u16,
    /// Its first state word.
    offset: usize,
    /// A list (length word, then items) rather than a bit set.
    is_list: bool,
    /// How many items it holds.
    count: usize,
}

/// Reshuffles, in a copy of the game, every item that `me` cannot see:
/// the contents of hidden sets and lists, and of other players' private
/// ones, pooled per kind and dealt back with each place keeping its size.
/// The game's random generator is reseeded too: future chance (dice,
/// shuffles) is sampled, not read. The copy is a [`Game::fork`]: its
/// history is empty (the decisions taken so far may name secret picks),
/// and making it costs the size of the state, not the length of the game.
pub fn determinize(game: &Game, me: usize, rng: &mut impl RngCore) -> Game {
    let mut g = game.fork();
    let rules = g.rules().clone();
    let players = g.players();
    let words = &mut g.state_mut().words;
    let places = unseen_places(&rules, words, players, me);
    let mut kinds: Vec<u16> = places.iter().map(|p| p.kind).collect();
    kinds.sort();
    kinds.dedup();
    for kind in kinds {
        let mine: Vec<&Unseen> = places.iter().filter(|p| p.kind == kind).collect();
        let mut pool = pool_items(&rules, words, &mine);
        for i in (1..pool.len()).rev() {
            let j = uniform_below(rng, i + 1);
            pool.swap(i, j);
        }
        deal_items(&rules, words, &mine, pool);
    }
    g.state_mut().rng = Pcg64::seed_from_u64(rng.next_u64());
    g
}

/// Every set or list place of the state that seat `me` cannot see, in the
/// order of the ruleset's variables.
fn unseen_places(rules: &Ruleset, words: &[i64], players: usize, me: usize) -> Vec<Unseen> {
    let mut places = Vec::new();
    for v in &rules.vars {
        let (kind, is_list) = match v.ty {
            Ty::Set(k) => (k, false),
            Ty::List(k) => (k, true),
            _ => continue,
        };
        for flat in 0..v.len() {
            let unseen = match v.visibility {
                Visibility::Public => false,
                Visibility::Hidden => true,
                Visibility::Private => {
                    let owner = flat / (v.len() / v.dims[0].size.max(1)).max(1);
                    owner < players && owner != me
                }
            };
            if !unseen {
                continue;
            }
            let offset = v.offset + flat * v.elem_words;
            let count = if is_list {
                words[offset] as usize
            } else {
                words[offset..offset + v.elem_words]
                    .iter()
                    .map(|w| (*w as u64).count_ones() as usize)
                    .sum()
            };
            places.push(Unseen {
                kind,
                offset,
                is_list,
                count,
            });
        }
    }
    places
}

/// The items the places hold, in place order (a set's in increasing order).
fn pool_items(rules: &Ruleset, words: &[i64], places: &[&Unseen]) -> Vec<i64> {
    let mut pool = Vec::new();
    for p in places {
        let off = p.offset;
        if p.is_list {
            pool.extend(&words[off + 1..off + 1 + p.count]);
        } else {
            for w in 0..elem_words_at(rules, off) {
                let bits = words[off + w] as u64;
                for b in 0..64 {
                    if bits >> b & 1 == 1 {
                        pool.push((w * 64 + b) as i64);
                    }
                }
            }
        }
    }
    pool
}

/// Deals `pool` back into the places in order, each taking as many items as
/// it held.
fn deal_items(rules: &Ruleset, words: &mut [i64], places: &[&Unseen], pool: Vec<i64>) {
    let mut next = pool.into_iter();
    for p in places {
        let off = p.offset;
        if p.is_list {
            for i in 0..p.count {
                words[off + 1 + i] = next.next().unwrap_or(-1);
            }
        } else {
            let n = elem_words_at(rules, off);
            for w in 0..n {
                words[off + w] = 0;
            }
            for _ in 0..p.count {
                if let Some(x) = next.next() {
                    let (w, b) = (x as usize / 64, x as usize % 64);
                    if w < n {
                        words[off + w] |= 1 << b;
                    }
                }
            }
        }
    }
}

/// Words per element of the variable holding state word `off`.
fn elem_words_at(rules: &Ruleset, off: usize) -> usize {
    rules
        .vars
        .iter()
        .find(|v| v.offset <= off && off < v.offset + v.len() * v.elem_words)
        .map_or(1, |v| v.elem_words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_below_covers_every_index() {
        let mut rng = Pcg64::seed_from_u64(7);
        let mut seen = [0usize; 5];
        for _ in 0..5000 {
            seen[uniform_below(&mut rng, 5)] += 1;
        }
        assert!(seen.iter().all(|c| *c > 800), "{seen:?}");
        assert_eq!(uniform_below(&mut rng, 1), 0);
        assert_eq!(uniform_below(&mut rng, 0), 0);
    }
}
