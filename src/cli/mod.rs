//! The `tabula` command line.
