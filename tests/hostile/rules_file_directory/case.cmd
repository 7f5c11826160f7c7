# a directory named in `files` was reported as a missing file
# run: tabula check ruleset
# exit: 1
# stderr: tabula::unreadable_file
# stderr: is a directory, not a file
