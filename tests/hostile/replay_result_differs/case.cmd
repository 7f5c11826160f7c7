# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the result differs: the log says p1 0, p2 10, the replay gives p1 10, p2 0
# absent: Some(
