# run: tabula translate tzolkin --rulebook /dev/zero --lang pt
# exit: 1
# stderr: is too long for a rulebook
