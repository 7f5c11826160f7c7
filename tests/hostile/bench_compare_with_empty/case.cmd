# run: tabula bench $NIM --seconds 0 --compare-with " "
# exit: 1
# stderr: --compare-with needs a command
# stderr: tabula::compare_command
# absent: decisions/game
