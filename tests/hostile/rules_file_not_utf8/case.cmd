# a file that is not UTF-8 was reported as a missing file
# run: tabula check ruleset
# exit: 1
# stderr: tabula::unreadable_file
# stderr: is not UTF-8 text: an invalid byte at line 2, column 23
