# run: tabula merge a.json --csv out.csv --json out.json
# exit: 1
# stderr: 3 of the run's 6 games are in no file (games 3-5): a shard is missing
# no-writes: out.csv
# no-writes: out.json
