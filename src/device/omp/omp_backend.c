/* PLACEHOLDER */
int pf_omp_placeholder;
