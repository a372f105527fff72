//! `keyheat import` on real public model files (tests/fixtures/imports/,
//! sources in its README): each becomes a scenario that `keyheat check`
//! accepts (listing its placeholders) and `keyheat run` completes; the
//! figures read from each file are asserted against the file; bad input is
//! a located error, never a panic.

use crate::util::root;
use assert_cmd::Command;
use keyheat::import::{import_text, placeholders, Kind};

fn keyheat() -> Command {
    Command::cargo_bin("keyheat").unwrap()
}

/// Every fixture with its kind.
const FIXTURES: [(&str, &str); 17] = [
    ("workbench", "workbench/ChatSystemSchema.json"),
    ("workbench", "workbench/SessionManagementSchema.json"),
    ("workbench", "workbench/RecurringPaymentsSchema.json"),
    ("cql", "cql/jaeger-v004.cql.tmpl"),
    ("cql", "cql/zipkin2-schema.cql"),
    ("cql", "cql/temporal-schema.cql"),
    (
        "cloudformation",
        "cloudformation/DynamoDB_Secondary_Indexes.yaml",
    ),
    ("cloudformation", "cloudformation/DynamoDB_Table.json"),
    (
        "cloudformation",
        "cloudformation/GlobalTable_Provisioned.yml",
    ),
    ("cloudformation", "cloudformation/fn-foreach-ddb.yaml"),
    (
        "cloudformation",
        "cloudformation/serverless-aws-node-rest-api-with-dynamodb.yml",
    ),
    (
        "terraform",
        "terraform/learn-terraform-dynamodb-scale-main.tf",
    ),
    (
        "terraform",
        "terraform/terraform-aws-dynamodb-table-main.tf",
    ),
    (
        "terraform",
        "terraform/terraform-aws-dynamodb-table-examples-basic-main.tf",
    ),
    (
        "mongodb",
        "mongodb/mongodb-cluster-docker-compose-readme.md",
    ),
    (
        "mongodb",
        "mongodb/mongodb-cluster-docker-compose-PSA-readme.md",
    ),
    ("mongodb", "mongodb/mongodb-docs-sh.shardCollection.txt"),
];

fn fixture(path: &str) -> std::path::PathBuf {
    root().join("tests/fixtures/imports").join(path)
}

/// The scenario text `keyheat import KIND FILE` prints.
fn imported(kind: &str, path: &str) -> String {
    let a = keyheat()
        .args(["import", kind])
        .arg(fixture(path))
        .assert()
        .success();
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

#[test]
fn every_real_file_imports_checks_and_runs() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, path) in FIXTURES {
        let scenario = dir.path().join(format!("{}.toml", path.replace('/', "-")));
        // --out writes the file and prints its absolute path.
        let a = keyheat()
            .args(["import", kind])
            .arg(fixture(path))
            .arg("--out")
            .arg(&scenario)
            .assert()
            .success();
        let stdout = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
        let written = stdout
            .strip_prefix("wrote: ")
            .and_then(|s| s.split(" (").next())
            .unwrap_or_else(|| panic!("{path}: {stdout}"));
        assert!(std::path::Path::new(written).is_absolute(), "{stdout}");
        let text = std::fs::read_to_string(&scenario).unwrap();
        // check accepts it, exit 0, and lists one warning line per TODO placeholder.
        let todo = text.matches("# TODO placeholder:").count();
        assert!(todo > 0, "{path}: no placeholders");
        let c = keyheat().arg("check").arg(&scenario).assert().success();
        let out = String::from_utf8_lossy(&c.get_output().stdout).into_owned();
        // A draft draws no validation warning (stderr).
        let err = String::from_utf8_lossy(&c.get_output().stderr).into_owned();
        assert!(!err.contains("warning"), "{path}: {err}");
        assert!(out.contains(": ok ("), "{path}: {out}");
        assert!(
            out.contains(&format!(
                "warning: {todo} placeholders to replace (marked TODO):"
            )),
            "{path}: {out}"
        );
        assert_eq!(
            out.lines().filter(|l| l.starts_with("  ")).count(),
            todo,
            "{path}"
        );
        // run completes and writes every table's results.
        let out_dir = dir.path().join(format!("out-{}", path.replace('/', "-")));
        keyheat()
            .args(["run", "--trials", "2", "--quiet", "--out"])
            .arg(&out_dir)
            .arg(&scenario)
            .assert()
            .success();
        let summary = crate::util::summary_json(&out_dir);
        let tables = text.matches("\n[[table]]\n").count();
        let indexes = summary["tables"].as_array().unwrap().len();
        assert!(
            indexes >= tables,
            "{path}: {tables} tables, {indexes} in summary.json"
        );
    }
}

#[test]
fn workbench_chat_model_figures() {
    let t = imported("workbench", "workbench/ChatSystemSchema.json");
    // ProvisionedCapacitySettings.ProvisionedThroughput: 5 RCU, 5 WCU.
    assert!(t.contains("read_capacity = 5 "), "{t}");
    assert!(t.contains("write_capacity = 5 "), "{t}");
    assert!(t.contains("name = \"Chat\""), "{t}");
    assert!(t.contains("partition_key = \"{pk}\""), "{t}");
    // The GSI RoomID_Comment_IDX: RoomID, then CreatedAt (ISO 8601 samples → {time}), ALL.
    assert!(
        t.contains("name = \"RoomID_Comment_IDX\"\npartition_key = \"{room_id}\""),
        "{t}"
    );
    assert!(
        t.contains("sort_key = \"{time}\"          # CreatedAt (S)"),
        "{t}"
    );
    assert!(t.contains("projection = \"all\""), "{t}");
    // 8 sample items; the first: PK "User:UserA" (2 + 10) + SK (2 + 24) + RoomID "Music"
    // (6 + 5) + Comment "Hello!" (7 + 6) + CreatedAt (9 + 24) = 95 B.
    assert!(t.contains("mean of 8 sample item(s)"), "{t}");
}

#[test]
fn workbench_include_projection_is_sized_from_samples() {
    let t = imported("workbench", "workbench/RecurringPaymentsSchema.json");
    // GSI-1 projects SK, PK, SKU, Email, NextPaymentDate; only the Subscription sample has its
    // keys (NextReminderDate, LastReminderDate), so the sparse index holds that one item:
    // item "SK" 2 + 15, "PK" 2 + 7, "SKU" 3 + 3, "Email" 5 + 7, "NextPaymentDate" 15 + 10 = 69 B.
    assert!(t.contains("projection = { include = \"69B\" }"), "{t}");
    assert!(
        t.contains("facets (entity types sharing the table) Subscription"),
        "{t}"
    );
}

#[test]
fn cql_zipkin_rows_by_cassandras_arithmetic() {
    let t = imported("cql", "cql/zipkin2-schema.cql");
    // WITH replication = {'class': 'SimpleStrategy', 'replication_factor': '1'}.
    assert!(t.contains("replication_factor = 1 "), "{t}");
    assert!(t.contains("strategy = \"simple\""), "{t}");
    // span: 15 columns − 3 primary key columns = 12 values per row.
    assert!(t.contains("columns_per_row = 12 "), "{t}");
    // span row: ts_uuid timeuuid 16 + 5 text guesses × 16 + ts, duration bigint 8 + 8
    // + 4 collections / UDTs guessed 64 each + 2 booleans = 16 + 80 + 16 + 256 + 2 = 370 B.
    assert!(t.contains("item_size = \"370B\""), "{t}");
    assert!(t.contains("ttl = \"604800s\""), "{t}");
    // dependency: PRIMARY KEY (day, parent, child), day a date → one-day bucket;
    // row parent ~16 + child ~16 + errors 8 + calls 8 = 48 B; TTL 259,200 s.
    assert!(t.contains("partition_key = \"{bucket}\""), "{t}");
    assert!(t.contains("bucket = \"1d\""), "{t}");
    assert!(t.contains("item_size = \"48B\""), "{t}");
    assert!(t.contains("ttl = \"259200s\""), "{t}");
}

#[test]
fn cql_jaeger_template_parameters_are_placeholders() {
    let t = imported("cql", "cql/jaeger-v004.cql.tmpl");
    assert!(t.contains("replication_factor = 3  # TODO placeholder: keyspace ${keyspace}: replication is ${replication}"), "{t}");
    assert!(t.contains("ttl = \"2d\"                    # TODO placeholder: default_time_to_live is ${trace_ttl}"), "{t}");
    // service_operation_index: PRIMARY KEY ((service_name, operation_name), start_time).
    assert!(
        t.contains("partition_key = \"{service_name}#{operation_name}\""),
        "{t}"
    );
    // 11 tables, each with a write and a read pattern.
    assert_eq!(t.matches("\n[[table]]\n").count(), 11);
    assert_eq!(t.matches("\n[[access_pattern]]\n").count(), 22);
}

#[test]
fn cloudformation_parameters_and_indexes() {
    let t = imported(
        "cloudformation",
        "cloudformation/DynamoDB_Secondary_Indexes.yaml",
    );
    // ReadCapacityUnits: !Ref ReadCapacityUnits (Default "5"), WriteCapacityUnits Default "10".
    assert!(t.contains("read_capacity = 5 "), "{t}");
    assert!(t.contains("write_capacity = 10 "), "{t}");
    // KeySchema Category (HASH), Title (RANGE); LSI LanguageIndex, GSI TitleIndex (KEYS_ONLY)
    // with its own ProvisionedThroughput (the same parameters).
    assert!(t.contains("partition_key = \"{category}\""), "{t}");
    assert!(t.contains("name = \"LanguageIndex\"\nlocal = true"), "{t}");
    assert!(
        t.contains("name = \"TitleIndex\"\npartition_key = \"{title}\""),
        "{t}"
    );
    assert!(t.contains("projection = \"keys_only\""), "{t}");
    let gsi = &t[t.find("name = \"TitleIndex\"").unwrap()..];
    assert!(
        gsi.contains("read_capacity = 5 ") && gsi.contains("write_capacity = 10 "),
        "{gsi}"
    );
    // A key attribute named by a parameter without a Default is a placeholder.
    let t = imported("cloudformation", "cloudformation/DynamoDB_Table.json");
    assert!(t.contains("partition_key = \"{hash_key_element_name}\"  # TODO placeholder: the hash key is Ref HashKeyElementName"), "{t}");
    // A global table with auto-scaling: capacity held at MinCapacity 5.
    let t = imported(
        "cloudformation",
        "cloudformation/GlobalTable_Provisioned.yml",
    );
    assert!(
        t.contains("read_capacity = 5 ") && t.contains("MinCapacity; auto-scaling up to 40000"),
        "{t}"
    );
}

#[test]
fn cloudformation_for_each_and_serverless_yml() {
    // Fn::ForEach::Tables over [Points, Score, Name, Leaderboard] with the template
    // DynamoDB${TableName} (TableName: !Ref TableName, HASH id S, 5 RCU / 5 WCU as strings).
    let t = imported("cloudformation", "cloudformation/fn-foreach-ddb.yaml");
    assert_eq!(t.matches("\n[[table]]\n").count(), 4);
    for name in ["Points", "Score", "Name", "Leaderboard"] {
        assert!(
            t.contains(&format!("\n[[table]]\nname = \"{name}\"\n")),
            "{name}: {t}"
        );
    }
    assert!(
        t.contains("read_capacity = 5   # DynamoDBPoints.ProvisionedThroughput.ReadCapacityUnits"),
        "{t}"
    );
    // The four tables bill alike: no "differ" note.
    assert!(!t.contains("differ"), "{t}");
    // serverless.yml: resources.Resources.TodosDynamoDbTable, TableName a Serverless
    // variable (${self:provider.environment.DYNAMODB_TABLE}) → the logical id; 1 RCU, 1 WCU.
    let t = imported(
        "cloudformation",
        "cloudformation/serverless-aws-node-rest-api-with-dynamodb.yml",
    );
    assert!(
        t.contains("\n[[table]]\nname = \"TodosDynamoDbTable\"\npartition_key = \"{id_value}\""),
        "{t}"
    );
    assert!(
        t.contains("read_capacity = 1 ") && t.contains("write_capacity = 1 "),
        "{t}"
    );
}

#[test]
fn terraform_billing_and_keys() {
    let t = imported(
        "terraform",
        "terraform/learn-terraform-dynamodb-scale-main.tf",
    );
    // billing_mode = "PAY_PER_REQUEST"; hash_key deviceId (S), range_key epochS (N).
    assert!(t.contains("mode = \"on_demand\""), "{t}");
    assert!(
        t.contains("partition_key = \"{device_id}\"  # deviceId (S)"),
        "{t}"
    );
    assert!(
        t.contains("sort_key = \"{id}\"              # epochS (N)"),
        "{t}"
    );
    assert!(t.contains("read_unit_per_million = 0.125"), "{t}");
    // The module's main.tf: var.hash_key has no default here; three conditional tables.
    let t = imported(
        "terraform",
        "terraform/terraform-aws-dynamodb-table-main.tf",
    );
    assert!(
        t.contains("the hash key is var.hash_key, a variable without a default here"),
        "{t}"
    );
    assert!(
        t.contains(
            "Not imported: aws_dynamodb_table.this: dynamic \"global_secondary_index\" blocks"
        ),
        "{t}"
    );
    assert_eq!(t.matches("\n[[table]]\n").count(), 3);
}

#[test]
fn terraform_module_call_reads_as_the_resource() {
    // module "dynamodb_table" { source = "../../", hash_key = "id", range_key = "title",
    // attributes = [id N, title S, age N], global_secondary_indexes = [{ TitleIndex: title,
    // age, INCLUDE ["id"] }] } and no billing_mode: the module's default PAY_PER_REQUEST.
    let t = imported(
        "terraform",
        "terraform/terraform-aws-dynamodb-table-examples-basic-main.tf",
    );
    assert!(t.contains("mode = \"on_demand\""), "{t}");
    assert!(
        t.contains("partition_key = \"{id_value}\"  # id (N)"),
        "{t}"
    );
    assert!(
        t.contains("sort_key = \"{id}\"             # title (S)"),
        "{t}"
    );
    assert!(
        t.contains("name = \"TitleIndex\"\npartition_key = \"{title}\""),
        "{t}"
    );
    assert!(t.contains("projection = { include = \"100B\" }  # TODO placeholder: bytes of the projected attributes id"), "{t}");
    // module "disabled_dynamodb_table" (create_table = false, no keys) is no table.
    assert_eq!(t.matches("\n[[table]]\n").count(), 1);
}

#[test]
fn mongodb_shard_keys_from_documentation() {
    let t = imported(
        "mongodb",
        "mongodb/mongodb-cluster-docker-compose-readme.md",
    );
    // db.adminCommand( { shardCollection: "MyDatabase.MyCollection",
    //   key: { oemNumber: "hashed", zipCode: 1, supplierId: 1 }, numInitialChunks: 3 } )
    assert!(t.contains("shard_key = \"hashed\""), "{t}");
    assert!(
        t.contains("partition_key = \"{oem_number}#{zip_code}#{supplier_id}\""),
        "{t}"
    );
    assert!(t.contains("name = \"MyCollection\""), "{t}");
    let t = imported(
        "mongodb",
        "mongodb/mongodb-cluster-docker-compose-PSA-readme.md",
    );
    assert!(t.contains("partition_key = \"{supplier_id}\""), "{t}");
    // The MongoDB manual's sh.shardCollection() page: its two examples,
    // sh.shardCollection("records.people", { zipcode: 1 } ) (line 335) and
    // sh.shardCollection("phonebook.contacts", { last_name: "hashed" }, false, { … }) (line 352);
    // the method signature sh.shardCollection(namespace, key, unique, options) is not a call
    // with literal arguments and is listed as not imported.
    let t = imported("mongodb", "mongodb/mongodb-docs-sh.shardCollection.txt");
    assert_eq!(t.matches("\n[[table]]\n").count(), 2);
    assert!(
        t.contains("records.people { zipcode: 1 } (line 335, sh.shardCollection)"),
        "{t}"
    );
    assert!(
        t.contains("phonebook.contacts { last_name: \"hashed\" } (line 352, sh.shardCollection)"),
        "{t}"
    );
    assert!(t.contains("partition_key = \"{zipcode}\""), "{t}");
    assert!(t.contains("partition_key = \"{last_name}\""), "{t}");
    assert!(t.contains("shard_key = \"ranged\""), "{t}");
    assert!(
        t.contains("Not imported: line 16: sh.shardCollection(namespace, key, unique, options)"),
        "{t}"
    );
}

#[test]
fn check_lists_placeholders_with_their_lines() {
    let text = imported("cql", "cql/zipkin2-schema.cql");
    let p = placeholders(&text);
    assert_eq!(p.len(), text.matches("# TODO placeholder:").count());
    let nodes = p.iter().find(|p| p.key == "[store] nodes").expect("nodes");
    assert_eq!(nodes.value, "6");
    assert_eq!(
        text.lines()
            .nth(nodes.line - 1)
            .map(|l| l.starts_with("nodes = 6")),
        Some(true)
    );
}

#[test]
fn bad_model_files_are_located_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &str); 7] = [
        (
            "workbench",
            "{\n  \"ModelName\": \"x\",\n  \"DataModel\": [ }",
            "m.json:3:18: workbench: not JSON",
        ),
        (
            "workbench",
            "{\"ModelName\": \"x\"}",
            "m.json:1:1: DataModel: not a NoSQL Workbench data model",
        ),
        (
            "cql",
            "CREATE TABLE t (\n  a int,\n  b 'oops\n",
            "m.json:3:5: cql: unterminated string",
        ),
        (
            "cloudformation",
            "Resources:\n  T: [unclosed\n",
            "m.json:3:1: cloudformation: not YAML",
        ),
        (
            "cloudformation",
            "Resources:\n  B:\n    Type: AWS::S3::Bucket\n",
            "m.json:1:1: Resources: the template has no AWS::DynamoDB::Table",
        ),
        (
            "terraform",
            "resource \"aws_dynamodb_table\" \"t\" {\n  name = \n}\n",
            "m.json:2:10: terraform: not HCL",
        ),
        (
            "mongodb",
            "sh.shardCollection(ns, key)\n",
            "m.json:1:4: shardCollection: no sh.shardCollection call",
        ),
    ];
    for (kind, text, want) in cases {
        let path = dir.path().join("m.json");
        std::fs::write(&path, text).unwrap();
        let a = keyheat()
            .args(["import", kind, "m.json"])
            .current_dir(dir.path())
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.starts_with(&format!("error: {want}")), "{kind}: {err}");
        assert!(err.contains("\n  fix: "), "{kind}: {err}");
    }
}

#[test]
fn truncated_real_files_never_panic() {
    // Every fixture cut at many points: each import is a located error or a
    // scenario keyheat reads back.
    for (kind, path) in FIXTURES {
        let text = std::fs::read_to_string(fixture(path)).unwrap();
        let kind = Kind::parse(kind).unwrap();
        let step = (text.len() / 40).max(1);
        for cut in (0..text.len()).step_by(step) {
            let cut = text.floor_char_boundary(cut);
            match import_text(kind, &text[..cut], "cut") {
                Ok(toml) => {
                    if let Err(e) = keyheat::Scenario::from_str_at(&toml, "cut.toml") {
                        panic!("{path} cut at {cut}: the draft does not read back: {e}\n{toml}");
                    }
                }
                Err(e) => {
                    let msg = e.to_string();
                    assert!(
                        msg.starts_with("cut:") && e.is_bad_input(),
                        "{path} cut at {cut}: {msg}"
                    );
                }
            }
        }
    }
}
