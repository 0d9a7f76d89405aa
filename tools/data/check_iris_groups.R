# Brute-force grouped PIPs for data/linear/iris.csv: g-prior (g = n, BAS formula),
# beta-binomial(1,1) over the 4 inputs (species one atom). Rscript tools/data/check_iris_groups.R
d <- read.csv("data/linear/iris.csv"); d$species <- factor(d$species)
n <- nrow(d); g <- n; N <- n - 1
grp <- c("sepal_width","petal_length","petal_width","species"); m <- length(grp)
y <- d$sepal_length; yc <- y - mean(y)
lp <- c(); inc <- list()
for (s in 0:(2^m-1)) {
  A <- grp[bitwAnd(s, 2^(0:(m-1))) > 0]
  if (length(A)) { X <- model.matrix(as.formula(paste("~", paste(A, collapse="+"))), d); k <- ncol(X)-1
    R2 <- summary(lm(y ~ X[,-1]))$r.squared } else { k <- 0; R2 <- 0 }
  lml <- (N-k)/2*log(1+g) - N/2*log(1+g*(1-R2))
  kg <- length(A); lpr <- -log(m+1) - lchoose(m, kg)
  lp <- c(lp, lml + lpr); inc[[length(inc)+1]] <- grp %in% A }
w <- exp(lp - max(lp)); w <- w/sum(w)
pip <- Reduce(`+`, Map(function(a,b) a*b, inc, w)); names(pip) <- grp; print(pip, digits=10)
sz <- sapply(0:m, function(k) sum(w[sapply(inc, sum) == k]))
out <- "data/linear/iris_groups_exact.json"
cat(sprintf('{\n  "source": "tools/data/check_iris_groups.R (R lm R^2, BAS g-prior formula, g = n = %d, beta-binomial(1,1) over %d inputs, species one atom)",\n  "atoms": [%s],\n  "pip": [%s],\n  "size_prob": [%s]\n}\n', n, m,
            paste0('"', grp, '"', collapse = ", "), paste(sprintf("%.17g", pip), collapse = ", "),
            paste(sprintf("%.17g", sz), collapse = ", ")), file = out)
