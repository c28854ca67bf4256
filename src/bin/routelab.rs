//! `routelab`: the native command-line tool.

// The NameServer and the bridge allocate per topic on every registration and route answer; with
// glibc's malloc, allocating and freeing took a fifth of a 1,000-topic REGISTER_BROKER.
// benches/namesrv_load.rs, which runs this NameServer in-process, uses the same allocator.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use std::path::PathBuf;
    use std::process::ExitCode;

    use clap::{Parser, Subcommand, ValueEnum};
    use routelab::sim::{lessons, preset_json, presets, Scenario, Sim};

    /// RouteLab: an interactive lab and live monitor for Apache RocketMQ routing.
    ///
    /// The dashboard runs in the browser on a simulated cluster: from a checkout, run `scripts/dev`
    /// and open http://127.0.0.1:8080/.
    #[derive(Parser)]
    #[command(
        name = "routelab",
        version,
        about,
        long_about,
        arg_required_else_help = true
    )]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Subcommand)]
    enum Command {
        /// Run a scenario deterministically and print its events and final state.
        ///
        /// Examples:
        ///   routelab sim scenarios/crash-hang-stop.json --format text
        ///   routelab sim --preset fault-tolerance --until 180
        ///   routelab sim --list-presets
        ///   routelab sim --preset lesson-2-heartbeats --format text   (a lesson, walked step by step)
        ///
        /// The scenario format is described in docs/scenario.md. A bad file exits with code 2 and
        /// an error naming the field, e.g. `actions[3].at: expected a number of seconds`.
        #[command(verbatim_doc_comment)]
        Sim(SimArgs),
        // The help text is AdminArgs' own doc comment.
        Admin(routelab::admin::cli::AdminArgs),
        // Help text: the doc comment of BridgeArgs (src/bridge/config.rs).
        Bridge(routelab::bridge::BridgeArgs),
        // Help text: the doc comment of NamesrvArgs (src/server/args.rs).
        Namesrv(routelab::server::NamesrvArgs),
        // Help text: the doc comment of DemoArgs (src/demo/config.rs).
        Demo(routelab::demo::DemoArgs),
        // Help text: the doc comment of HistoryCliArgs (src/history/cli.rs).
        History(routelab::history::HistoryCliArgs),
        // Help text: the doc comment of ClassroomArgs (src/classroom/server/mod.rs).
        Classroom(routelab::classroom_hub::ClassroomArgs),
    }

    #[derive(clap::Args)]
    struct SimArgs {
        /// Scenario file (JSON). Use `-` for standard input.
        #[arg(required_unless_present_any = ["preset", "list_presets"], conflicts_with = "preset")]
        file: Option<PathBuf>,
        /// Run a scenario that ships with RouteLab instead of a file.
        #[arg(long, value_name = "NAME")]
        preset: Option<String>,
        /// List the shipped scenarios with their teaching notes, then exit.
        #[arg(long)]
        list_presets: bool,
        /// Stop at this virtual time (seconds) instead of the scenario's `until` (default 300).
        #[arg(long, value_name = "SECS")]
        until: Option<f64>,
        /// Output: one JSON document, or a readable timeline with mqadmin-like tables.
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum Format {
        Json,
        Text,
    }

    pub fn main() -> ExitCode {
        let cli = Cli::parse();
        match cli.command {
            Command::Sim(args) => sim(args),
            Command::Admin(args) => routelab::admin::cli::main(args),
            Command::Bridge(args) => routelab::bridge::cli::main(args),
            Command::Namesrv(args) => routelab::server::cli::main(args),
            Command::Demo(args) => routelab::demo::cli::main(args),
            Command::History(args) => routelab::history::main(args),
            Command::Classroom(args) => routelab::classroom_hub::cli::main(args),
        }
    }

    fn sim(args: SimArgs) -> ExitCode {
        if args.list_presets {
            for p in presets() {
                let note = p
                    .json
                    .and_then(|json| Scenario::from_json(json).ok())
                    .and_then(|s| s.note)
                    .map(|n| n.points(routelab::i18n::Lang::En).join(" "))
                    .unwrap_or_default();
                println!("{:<20} {note}\n", p.name);
            }
            // Lessons are scenarios too: `--preset` runs one, walking its steps first.
            for l in lessons() {
                println!("{:<20} lesson: {} ({})\n", l.name, l.title_en, l.title_zh);
            }
            return ExitCode::SUCCESS;
        }
        let (source, text) = match (&args.preset, &args.file) {
            (Some(name), _) => match preset_json(name) {
                Some(json) => (format!("preset {name}"), json.to_owned()),
                None => {
                    let names: Vec<&str> = presets().iter().map(|p| p.name).collect();
                    let lessons: Vec<&str> = lessons().iter().map(|l| l.name).collect();
                    eprintln!(
                        "error: no preset named {name:?}; presets: {}; lessons: {}",
                        names.join(", "),
                        lessons.join(", ")
                    );
                    return ExitCode::from(2);
                }
            },
            (None, Some(path)) => {
                let read = if path.as_os_str() == "-" {
                    std::io::read_to_string(std::io::stdin())
                } else {
                    std::fs::read_to_string(path)
                };
                match read {
                    Ok(t) if path.as_os_str() == "-" => ("standard input".to_owned(), t),
                    Ok(t) => (path.display().to_string(), t),
                    Err(e) => {
                        eprintln!("error: cannot read {}: {e}", path.display());
                        return ExitCode::from(2);
                    }
                }
            }
            (None, None) => unreachable!("clap requires a file or a preset"),
        };
        let scenario = match Scenario::from_json(&text) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {source}: {e}");
                eprintln!("(the scenario format is described in docs/scenario.md)");
                return ExitCode::from(2);
            }
        };
        if let Some(u) = args.until {
            if !(u.is_finite() && u >= 0.0) {
                eprintln!("error: --until: expected a non-negative number of seconds, got {u}");
                return ExitCode::from(2);
            }
        }
        // A lesson is walked first (each task done, each question answered), then the run goes
        // on to `until` as any scenario's.
        let mut walked_events = Vec::new();
        let (mut sim, lesson) = if scenario.lesson.is_some() {
            match routelab::sim::lesson::walk::walk(&scenario, |e| walked_events.push(e.clone())) {
                Ok((sim, steps)) => {
                    let report = routelab::sim::lesson::walk::report(&scenario, &steps);
                    (sim, report)
                }
                Err(e) => {
                    eprintln!("error: {source}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        } else {
            (Sim::new(&scenario), Vec::new())
        };
        let until = args
            .until
            .map_or(sim.until(), |u| (u * 1000.0).round() as u64)
            .max(sim.now());
        let mut out = sim.run_to_output(until);
        walked_events.append(&mut out.events);
        out.events = walked_events;
        out.lesson = lesson;
        let text = match args.format {
            Format::Json => out.to_json() + "\n",
            Format::Text => out.to_text(),
        };
        write_stdout(&text)
    }

    /// Writes to stdout; a closed pipe (`routelab sim … | head`) ends quietly instead of panicking.
    fn write_stdout(text: &str) -> ExitCode {
        use std::io::Write;
        let mut stdout = std::io::stdout().lock();
        match stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
        {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: cannot write the output: {e}");
                ExitCode::FAILURE
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

// `cargo build --target wasm32-unknown-unknown` compiles every bin: give it a stub.
#[cfg(target_arch = "wasm32")]
fn main() {}
