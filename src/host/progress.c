/* PLACEHOLDER */ int pf_progress_placeholder;
