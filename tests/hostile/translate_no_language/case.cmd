# run: tabula translate tzolkin --rulebook book.txt
# exit: 2
# stderr: give the rulebook's language with --lang
