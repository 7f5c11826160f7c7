# run: tabula translate tzolkin --rulebook nope.pt.txt --min-coverage NaN
# exit: 2
# stderr: --min-coverage is a percentage from 0 to 100, not NaN
