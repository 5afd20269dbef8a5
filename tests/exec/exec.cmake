# Execution-model and counter tests (host side).
