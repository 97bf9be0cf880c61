/*
** blurbs.h -- gprof 2.40's explanations of the flat profile and of the call
** graph, printed after each report unless -b (gprof.c).
*/
#ifndef APROF_REPORT_BLURBS_H
#define APROF_REPORT_BLURBS_H

/*
** The flat-profile explanation: gprof 2.40's flat_bl.m text from its leading
** blank line to the end of its copyright block ("...are preserved.\n"), the
** block introduced by "\f\n" as gprof prints it; its per-call columns are
** in the unit their heading names.
*/
extern const char blurb_flat[];

/*
** The call-graph explanation: gprof 2.40's fsf_callg_bl.m text, then one
** paragraph on aprof's measured arc times, then the copyright block.
*/
extern const char blurb_callgraph[];

/*
** For a heap metric (--metric), printed before each blurb: a printf format
** taking what is charged ("heap bytes allocated") and the unit shown
** ("Kbytes"), saying how to read gprof's words about time.
*/
extern const char blurb_metric_note[];

#endif /* APROF_REPORT_BLURBS_H */
