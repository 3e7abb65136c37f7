import Foundation
import StrokeKit
import StrokeNN
import SwiftProtobuf
import Testing

@testable import StrokeExport

@Suite struct CoreMLExportTests {
    func decode(_ model: TrainedModel) throws -> CoreML_Specification_Model {
        try CoreML_Specification_Model(serializedBytes: ExportFixtures.exporter(model).encoded(as: .coreml))
    }

    func kind(_ layer: CoreML_Specification_NeuralNetworkLayer) -> String {
        switch layer.layer {
        case .convolution?: "conv"
        case .pooling?: "pool"
        case .activation(let activation)?: activation.nonlinearityType == .reLu(.init()) ? "relu" : "activation?"
        case .innerProduct?: "dense"
        case .softmax?: "softmax"
        case .flatten?: "flatten"
        case nil: "none"
        }
    }

    @Test func defaultArchitectureDecodesToAClassifierOfTheNetworksLayers() throws {
        let spec = try decode(ExportFixtures.model())
        #expect(spec.specificationVersion == 4)
        guard case .neuralNetworkClassifier(let classifier)? = spec.type else {
            Issue.record("not a neural-network classifier: \(String(describing: spec.type))")
            return
        }
        #expect(classifier.layers.map(kind) == [
            "conv", "pool", "relu", "conv", "pool", "relu", "conv", "pool", "relu",
            "flatten", "dense", "relu", "dense", "softmax",
        ])
        // Each layer reads the previous one's output; the last dense writes the logits.
        for (previous, layer) in zip(classifier.layers, classifier.layers.dropFirst()) {
            #expect(layer.input == previous.output, "\(layer.name)")
        }
        #expect(classifier.layers.first?.input == ["image"])
        #expect(classifier.layers.last?.output == ["classProbabilities"])
        #expect(classifier.labelProbabilityLayerName == "classProbabilities")
        #expect(classifier.stringClassLabels.vector == ["arrow", "circle", "cycle", "none"])

        let description = spec.description_p
        let input = try #require(description.input.first)
        guard case .imageType(let image)? = input.type.type else {
            Issue.record("input is not an image")
            return
        }
        #expect(input.name == "image" && image.width == 28 && image.height == 28 && image.colorSpace == .grayscale)
        let scaler = try #require(classifier.preprocessing.first)
        #expect(scaler.featureName == "image")
        #expect(scaler.scaler.channelScale == ModelInput.scale && scaler.scaler.grayBias == 0,
                "pixel * channelScale must be ModelInput's pixel * (1 / 255)")
        #expect(description.output.map(\.name) == ["classLabel", "classProbabilities"])
        #expect(description.predictedFeatureName == "classLabel")
        #expect(description.predictedProbabilitiesName == "classProbabilities")
        if case .dictionaryType(let dictionary)? = description.output[1].type.type {
            #expect(dictionary.keyType == .stringKeyType(.init()))
        } else {
            Issue.record("classProbabilities is not a dictionary")
        }
    }

    @Test func layersCarryEveryParameterAndTheConvolutionGeometry() throws {
        let model = ExportFixtures.model(architecture: ExportFixtures.smallArchitecture, classes: ["a", "b", "c"])
        let spec = try decode(model)
        let layers = spec.neuralNetworkClassifier.layers
        let convs = layers.compactMap { layer -> CoreML_Specification_ConvolutionLayerParams? in
            if case .convolution(let conv)? = layer.layer { return conv } else { return nil }
        }
        #expect(convs.map(\.kernelSize) == [[5, 5], [3, 3], [1, 1]])
        #expect(convs.map(\.kernelChannels) == [1, 8, 16] && convs.map(\.outputChannels) == [8, 16, 24])
        #expect(convs.map { $0.valid.paddingAmounts.borderAmounts.map(\.startEdgeSize) } == [[2, 2], [1, 1], [0, 0]])
        #expect(convs.map { $0.valid.paddingAmounts.borderAmounts.map(\.endEdgeSize) } == [[2, 2], [1, 1], [0, 0]])
        #expect(convs.allSatisfy { $0.hasBias_p && $0.stride == [1, 1] })
        let denses = layers.compactMap { layer -> CoreML_Specification_InnerProductLayerParams? in
            if case .innerProduct(let dense)? = layer.layer { return dense } else { return nil }
        }
        #expect(denses.map(\.inputChannels) == [24 * 3 * 3, 32] && denses.map(\.outputChannels) == [32, 3])
        // Weights in the model file's order: conv1.weight, conv1.bias, conv2..., dense2.bias.
        let exported = convs.flatMap { [$0.weights.floatValue, $0.bias.floatValue] }
            + denses.flatMap { [$0.weights.floatValue, $0.bias.floatValue] }
        #expect(exported == model.network.parameters.map(\.value.values))
    }

    @Test func userDefinedMetadataCarriesTheRejectRule() throws {
        let spec = try decode(ExportFixtures.model(classes: ["arrow", "circle", "cycle"],
                                                   extra: ["strokekit.reject.min_confidence": "0.75"]))
        let metadata = spec.description_p.metadata
        #expect(metadata.userDefined["strokekit.classes"] == #"["arrow","circle","cycle"]"#)
        #expect(metadata.userDefined["strokekit.reject.min_confidence"] == "0.75")
        #expect(metadata.userDefined["strokekit.reject.background_classes"] == "[]")
        #expect(metadata.userDefined["strokekit.reject.rule"] == "reject when the most probable class's probability is below 0.75")
        #expect(metadata.shortDescription.contains("c16-p-c32-p-c64-p-d128"))
    }
}
