use std::sync::Arc;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = tabula::model::find_ruleset(&args[1]);
    match tabula::model::load(&dir, &[]) {
        Ok(r) => {
            let r = Arc::new(r);
            let mut g = tabula::engine::Game::new(r, 2, 1).unwrap();
            let mut i = 0u64;
            while !g.is_over() {
                let l = g.legal().unwrap();
                println!(
                    "{:?} {:?}",
                    g.to_move(),
                    l.iter().map(|d| &d.name).collect::<Vec<_>>()
                );
                i = i
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                g.apply(((i >> 33) as usize) % l.len()).unwrap();
            }
            println!("{:?}", g.outcome().unwrap());
        }
        Err(tabula::model::LoadError::Invalid(d)) => print!("{}", d.render_plain()),
        Err(e) => println!("{e}"),
    }
}
