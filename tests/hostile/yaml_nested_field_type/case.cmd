# a field of arrays in a table was accepted, its inner values unreadable
# run: tabula check ruleset
# exit: 1
# stderr: tabula::unsupported_type
# stderr: a field cannot hold arrays or tables of arrays or tables
