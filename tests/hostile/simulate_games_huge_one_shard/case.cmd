# run: tabula simulate $NIM --games 18446744073709551615 --shard 1/18446744073709551615 --json out.json
# exit: 0
# stdout: 1 game, 3 players
# writes: out.json
