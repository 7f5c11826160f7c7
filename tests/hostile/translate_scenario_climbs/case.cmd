# run: tabula translate tzolkin --rulebook book.pt.txt --claims claims.yaml
# exit: 1
# stdout: not the name of a file of the
# stdout: invalid claims                  1
