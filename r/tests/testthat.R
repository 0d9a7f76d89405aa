library(testthat)
library(basel)
test_check("basel")
