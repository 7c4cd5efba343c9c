//! The engine's, the lab's and the command line's integration tests, as
//! one test binary: one link of the pnlab library instead of one per file
//! (which made most of CI's test time). Each file is a module named as the
//! file; `cargo test --test engine NAME` runs the tests whose path holds
//! NAME (e.g. `othello_ffo::`).

#[path = "../common/mod.rs"]
mod common;

mod alphabeta;
mod best_move_proved_roots;
mod budgets;
mod certificates;
mod certificates_cyclic;
mod certificates_within;
mod certify;
mod chance_search;
mod cli;
mod cli_extreme_values;
mod cli_pipes;
mod cli_runs;
mod cli_scn;
mod cns;
mod connect;
mod connect4;
mod connect6_positions;
mod connect_zones;
mod correct_moves;
mod deep_pn;
mod deep_pn_switches;
mod dfpn_drawn_values;
mod dfpn_fast;
mod dfpn_games;
mod dfpn_hill_climb;
mod dfpn_parallel;
mod dfpn_speed;
mod dfpn_tictactoe;
mod edge_labels;
mod ewn;
mod experiment_merge;
mod experiment_switches;
mod file_references;
mod fuzz_readers;
mod ghi;
mod headless;
mod helpers;
mod hex;
mod hex_knowledge;
mod hex_resistance;
mod lesson_budgets;
mod lesson_frames;
mod lessons;
mod live_fuzz;
mod live_room;
mod live_server;
mod montecarlo;
mod montecarlo_choice;
mod montecarlo_float;
mod om;
mod othello;
mod othello_ffo;
mod pgame;
mod pn_value;
mod pns_tictactoe;
mod position_files;
mod recorder;
mod root_numbers_agree;
mod rscn_long_mates;
mod score_question;
mod solvers_vs_reference;
mod star2_probes;
mod tree_chance_loops;
mod tree_format;
mod tree_layout;
mod web_bench;
mod within;
mod xiangqi_eval;
mod xiangqi_eval_variants;
mod xiangqi_files;
mod xiangqi_mate;
mod xiangqi_records;
mod xiangqi_rules;
