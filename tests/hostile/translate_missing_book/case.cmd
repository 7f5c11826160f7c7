# run: tabula translate tzolkin --rulebook nope.pt.txt
# exit: 1
# stderr: cannot read `nope.pt.txt`
