import ArgumentParser
import Foundation
import Testing
import ParallaxDatasets
import ParallaxFiles
@testable import ParallaxFetch
@testable import ParallaxCLI

@Suite struct DatasetCatalogTests {
    @Test func theBuiltinCatalogNamesEveryDatasetTheIssueAsksForWithLayoutsParallaxReads() throws {
        let catalog = try DatasetCatalog.builtin
        #expect(Set(catalog.datasets.map(\.name)) == ["euroc", "tum-rgbd", "tum-vi", "kitti-poses", "middlebury-stereo", "middlebury-flow", "otb", "aflw2000-3d"])
        for entry in catalog.datasets {
            #expect(!entry.licence.isEmpty && entry.source.hasPrefix("http"), "\(entry.name)")
            if let layout = entry.layout {
                #expect(DatasetFormatRegistry.standard.format(named: layout) != nil, "\(entry.name): layout \(layout)")
            } else {
                #expect(entry.reads != nil, "\(entry.name) says neither its layout nor how it is read")
            }
        }
        let euroc = try #require(catalog.datasets.first { $0.name == "euroc" })
        #expect(euroc.sequences.count == 11)
        let (_, mh01) = try catalog.archive(dataset: "euroc", sequence: "MH_01_easy")
        #expect(mh01.url.hasSuffix("/machine_hall/MH_01_easy/MH_01_easy.zip"))
        let (_, only) = try catalog.archive(dataset: "kitti-poses", sequence: nil)
        #expect(only.name == "poses")
    }

    @Test func eurocSaysHowToRunItsBagsWithTheFetchedCalibration() throws {
        let (entry, mh01) = try DatasetCatalog.builtin.archive(dataset: "euroc", sequence: "MH_01_easy")
        let steps = try #require(entry.nextSteps(folder: "/data/MH_01_easy", sequence: mh01.name))
        let command = try #require(steps.split(separator: "\n").last).trimmingCharacters(in: .whitespaces)
        #expect(command == "parallax run chains/vio-mono.yaml MH_01_easy.bag --out out/vio "
                + "--calibration cam0=/data/MH_01_easy/mav0/cam0/sensor.yaml --calibration imu0=/data/MH_01_easy/mav0/imu0/sensor.yaml")
        // The command printed is one `parallax` takes.
        _ = try ParallaxCommand.parseAsRoot(command.split(separator: " ").dropFirst().map(String.init))
        #expect(try DatasetCatalog.builtin.archive(dataset: "tum-rgbd", sequence: "fr1_xyz").0.nextSteps(folder: "/d", sequence: "fr1_xyz") == nil)
    }

    @Test func namesAndSequencesThatAreNotThereAreBadInputNamingWhatIs() throws {
        let catalog = try DatasetCatalog.builtin
        #expect(throws: FetchError.self) { try catalog.archive(dataset: "eurok", sequence: nil) }
        do { _ = try catalog.archive(dataset: "euroc", sequence: nil); Issue.record("no error") } catch let e as FetchError {
            #expect(e.isBadInput && e.description.contains("MH_01_easy"))
        }
        do { _ = try catalog.archive(dataset: "euroc", sequence: "MH_09"); Issue.record("no error") } catch let e as FetchError {
            #expect(e.isBadInput && e.description.contains("MH_09") && e.description.contains("V2_03_difficult"))
        }
    }

    @Test(arguments: [
        ("datasets: [{name: a, title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip', sha256: abc}]}]", "sha256"),
        ("datasets: [{name: a, title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'ftp://h/a.zip'}]}]", "url"),
        ("datasets: [{name: a, title: t, what: w, licence: l, source: s, sequences: [{name: '..', url: 'http://h/a.zip'}]}]", "sequence name"),
        ("datasets: [{name: a, title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip', bytes: 0}]}]", "bytes"),
        ("datasets: [{name: a, title: t, what: w, licence: l, source: s, sequences: []}]", "no sequences"),
        ("datasets: [{name: a, title: t}]", "missing key 'what'"),
        ("datasets: [{name: a, title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip', sha265: abc}]}]", "unknown key 'sha265'; did you mean 'sha256'?"),
        ("datasets: [{name: a, title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip'}, {name: x, url: 'http://h/b.zip'}]}]", "sequence name 'x' is given twice"),
        ("datasets: [{name: a, title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip', strip: 9}]}]", "strip must be 0…8"),
        ("datasets: [{name: a, title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip', bytes: 1e30}]}]", "bytes"),
        ("datasets: [{name: '../../outside', title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip'}]}]", "dataset name '../../outside' is a path"),
        ("datasets: [{name: '..', title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip'}]}]", "dataset name '..' starts with '.'"),
        ("datasets: [{name: 'a\\\\b', title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip'}]}]", "is a path"),
        ("datasets: [{name: '', title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip'}]}]", "dataset name '' is empty"),
        ("datasets: [{name: \"a\\tb\", title: t, what: w, licence: l, source: s, sequences: [{name: x, url: 'http://h/a.zip'}]}]", "control character"),
        ("datasets: [{name: a, title: t, what: w, licence: l, source: s, sequences: [{name: 'x/../../y', url: 'http://h/a.zip'}]}]", "sequence name 'x/../../y' is a path"),
    ])
    func aBadCatalogIsAnErrorNamingTheFileAndTheField(yaml: String, words: String) {
        do { _ = try DatasetCatalog(yaml: yaml, file: "mirror.yaml"); Issue.record("accepted: \(yaml)") } catch let e as YAMLDecodingError {
            #expect(e.file == "mirror.yaml" && e.line == 1 && e.description.hasPrefix("mirror.yaml:1:") && e.message.contains(words), "\(e)")
        } catch { Issue.record("\(error)") }
    }
}
