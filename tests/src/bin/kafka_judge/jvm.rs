//! The Java judge (tests/judge/KafkaJudge.java) as a child process: requests go
//! out on its stdin, one line each, and its answers come back in order.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout};

/// What the judge could not do: start, or answer as its contract says. Never a
/// verdict on a message.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// The JVM did not start.
    #[error("cannot start the judge ({command}): {source}")]
    Start {
        command: String,
        source: std::io::Error,
    },
    /// Reading or writing its pipes failed (it died, most likely).
    #[error("the judge's pipes: {0}")]
    Pipe(#[from] std::io::Error),
    /// It stopped answering before every request had its answer.
    #[error("the judge stopped after {answered} of {asked} answers")]
    Ended { answered: usize, asked: usize },
    /// An answer that is none of `ok`, `refused`.
    #[error("the judge did not understand a request: {0}")]
    Bad(String),
}

/// One answer: Kafka's fields after `ok`, or why Kafka refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Kafka did it; the answer's fields.
    Ok(Vec<String>),
    /// Kafka refused: the exception's class and message, or the judge's check.
    Refused(String),
}

/// The running judge.
pub struct Judge {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Judge {
    /// Starts `command` (the java command line `tests/judge/run` prints).
    pub fn start(command: &[String]) -> Result<Judge, JudgeError> {
        let (child, stdin, stdout) =
            kwire_tests::child::spawn_piped(command).map_err(|e| JudgeError::Start {
                command: e.command,
                source: e.source,
            })?;
        Ok(Judge {
            child,
            stdin: BufWriter::with_capacity(1 << 20, stdin),
            stdout: BufReader::with_capacity(1 << 20, stdout),
        })
    }

    /// Sends every request (one line each, no newline inside) and returns their
    /// answers in order. A thread writes while this one reads, so neither pipe
    /// fills up while the other side waits.
    pub fn ask(&mut self, requests: &[String]) -> Result<Vec<Answer>, JudgeError> {
        let Judge { stdin, stdout, .. } = self;
        std::thread::scope(|scope| {
            let writer = scope.spawn(move || -> std::io::Result<()> {
                for request in requests {
                    stdin.write_all(request.as_bytes())?;
                    stdin.write_all(b"\n")?;
                }
                stdin.flush()
            });
            let mut answers = Vec::with_capacity(requests.len());
            // Every answer is read even after a bad one: the judge would block
            // writing answers nobody reads, and the writer with it.
            let mut bad = None;
            let mut line = String::new();
            while answers.len() < requests.len() {
                line.clear();
                if stdout.read_line(&mut line)? == 0 {
                    return Err(JudgeError::Ended {
                        answered: answers.len(),
                        asked: requests.len(),
                    });
                }
                match parse(line.trim_end_matches('\n')) {
                    Ok(answer) => answers.push(answer),
                    Err(e) => {
                        bad.get_or_insert(e);
                        answers.push(Answer::Refused(String::new()));
                    }
                }
            }
            writer
                .join()
                .map_err(|_| std::io::Error::other("the writing thread panicked"))??;
            match bad {
                Some(e) => Err(e),
                None => Ok(answers),
            }
        })
    }

    /// Closes its stdin (it then exits) and waits for it.
    pub fn finish(self) -> Result<(), JudgeError> {
        let Judge {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        child.wait()?;
        Ok(())
    }
}

fn parse(line: &str) -> Result<Answer, JudgeError> {
    let mut fields = line.split('\t');
    match fields.next() {
        Some("ok") => Ok(Answer::Ok(fields.map(String::from).collect())),
        Some("refused") => Ok(Answer::Refused(fields.collect::<Vec<_>>().join(" "))),
        _ => Err(JudgeError::Bad(line.chars().take(500).collect())),
    }
}
