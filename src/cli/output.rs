//! Standard output and error that tolerate being closed.
//!
//! `tabula simulate ... | head -1` closes the pipe after one line. Rust's
//! `println!` panics on the next write; here a closed stdout (or stderr)
//! only stops further printing to it: the command carries on, writes the
//! files it was asked for, and exits with its usual code (0 on success).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes to stdout; after a failed write (a closed pipe), writes nothing.
pub fn out(args: std::fmt::Arguments) {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut o = std::io::stdout().lock();
    if o.write_fmt(args).and_then(|()| o.flush()).is_err() {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Writes to stderr; after a failed write, writes nothing.
pub fn err(args: std::fmt::Arguments) {
    if STDERR_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut o = std::io::stderr().lock();
    if o.write_fmt(args).is_err() {
        STDERR_CLOSED.store(true, Ordering::Relaxed);
    }
}
