# run: tabula bench $NIM --seconds 0 --compare-with "echo games/s: many"
# exit: 1
# stderr: printed `many` after `games/s:`, not a number
# stderr: output of `echo games/s: many`:1:10
# stderr: tabula::compare_command
