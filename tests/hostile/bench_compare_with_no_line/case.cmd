# run: tabula bench $NIM --seconds 0 --compare-with "echo 12345 games per second"
# exit: 1
# stderr: printed no line `games/s: N`
# stderr: tabula::compare_command
# stdout: | 12345 games per second
