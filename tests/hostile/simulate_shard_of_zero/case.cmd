# run: tabula simulate $NIM --games 3 --shard 1/0
# exit: 1
# stderr: bad --shard `1/0`: n must be at least 1
