# run: tabula bench $NIM --seconds 0 --compare-with "echo broken >&2; exit 3"
# exit: 1
# stderr: `echo broken >&2; exit 3` failed (exit code 3)
# stderr: broken
# stderr: tabula::compare_command
# stdout: games/s:
