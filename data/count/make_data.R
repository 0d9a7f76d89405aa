# data/count/make_data.R: quine.csv from R's MASS::quine (Rscript make_data.R;
# r-cran-mass in Debian). Running it twice gives the same file.
# Venables and Ripley, Modern Applied Statistics with S: days absent from
# school in a year for 146 children in rural New South Wales (Quine 1975).
# The four factors become 0/1 indicator inputs (the first level, sorted, is
# the reference, as R's treatment contrasts): Eth N (non-aboriginal; A the
# reference), Sex M (F), Age F1, F2, F3 (primary F0 the reference), Lrn SL
# (slow learner; AL the reference). Target: Days (a count).
library(MASS)
q <- quine
d <- data.frame(eth_n = as.integer(q$Eth == "N"), sex_m = as.integer(q$Sex == "M"),
                age_f1 = as.integer(q$Age == "F1"), age_f2 = as.integer(q$Age == "F2"),
                age_f3 = as.integer(q$Age == "F3"), lrn_sl = as.integer(q$Lrn == "SL"), days = q$Days)
write.csv(d, "quine.csv", row.names = FALSE, quote = FALSE)
