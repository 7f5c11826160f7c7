# run: tabula simulate $NIM --games 3 --json no/such/dir/out.json
# exit: 1
# stderr: cannot write `no/such/dir/out.json`
# absent: games, 3 players
