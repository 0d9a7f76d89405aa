# Writes data/linear/iris.csv: R's datasets::iris (Fisher/Anderson, 150
# flowers), columns renamed to plain identifiers, Species a text column
# (a categorical input of 3 levels). Run: Rscript tools/data/make_iris.R
d <- datasets::iris
names(d) <- c("sepal_length", "sepal_width", "petal_length", "petal_width", "species")
d <- d[, c("sepal_width", "petal_length", "petal_width", "species", "sepal_length")]
write.csv(d, "data/linear/iris.csv", row.names = FALSE, quote = FALSE)
